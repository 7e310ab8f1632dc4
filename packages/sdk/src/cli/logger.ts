// CLI logs: JSON lines when stderr is not a terminal (cron, systemd), short text lines when it is.
export type Level = 'debug' | 'info' | 'warn' | 'error';

export interface Logger {
  log(level: Level, message: string, fields?: Record<string, unknown>): void;
}

export function createLogger(options: {
  json: boolean;
  stream?: NodeJS.WritableStream;
  quiet?: boolean;
}): Logger {
  const stream = options.stream ?? process.stderr;
  return {
    log(level, message, fields = {}) {
      if (options.quiet && (level === 'debug' || level === 'info')) return;
      if (options.json) {
        stream.write(
          `${JSON.stringify({ time: new Date().toISOString(), level, msg: message, ...fields })}\n`,
        );
        return;
      }
      const extra = Object.entries(fields)
        .map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`)
        .join(' ');
      stream.write(`${level === 'info' ? '' : `${level}: `}${message}${extra ? ` ${extra}` : ''}\n`);
    },
  };
}
