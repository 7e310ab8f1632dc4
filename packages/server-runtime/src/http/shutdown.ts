import type { Logger } from 'pino';

/**
 * Runs `stop` once on SIGTERM or SIGINT (telling which) and exits 0 when it completes (1 if it fails).
 * A second signal while stopping exits at once, for an operator who really means it.
 */
export function onShutdownSignal(logger: Logger, stop: (signal: NodeJS.Signals) => Promise<void>): void {
  let stopping = false;
  const handle = (signal: NodeJS.Signals) => {
    if (stopping) {
      logger.warn({ signal }, 'second signal while stopping; exiting now');
      process.exit(1);
    }
    stopping = true;
    logger.info({ signal }, 'stopping');
    stop(signal).then(
      () => {
        logger.info('stopped');
        process.exit(0);
      },
      (error: unknown) => {
        logger.error({ err: error }, 'error while stopping');
        process.exit(1);
      },
    );
  };
  // \`on\`, not \`once\`: with the listener gone, a second signal would kill the process unlogged.
  process.on('SIGTERM', handle);
  process.on('SIGINT', handle);
}
