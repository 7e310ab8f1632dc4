import type { Logger } from 'pino';
import { ConfigError } from './config/parse-env.ts';
import { ListenError } from './http/listen.ts';

/**
 * Ends the process after a failed start with a message an operator can act on:
 * exit 2 for invalid configuration, 1 for anything else (port taken, unreadable certificate…).
 */
export function exitOnStartupError(error: unknown, logger?: Logger): never {
  if (error instanceof ConfigError) {
    process.stderr.write(`${error.message}\n`);
    process.exit(2);
  }
  const message = error instanceof ListenError ? error.message : `failed to start: ${String(error)}`;
  if (logger) logger.fatal({ err: error instanceof ListenError ? undefined : error }, message);
  process.stderr.write(`${message}\n`);
  process.exit(1);
}
