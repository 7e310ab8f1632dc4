// CLI logs: JSON lines when stderr is not a terminal (cron, systemd), short text lines when it is.
export const LEVELS = ['debug', 'info', 'warn', 'error'] as const;
export type Level = (typeof LEVELS)[number];

export interface Logger {
  log(level: Level, message: string, fields?: Record<string, unknown>): void;
}

export function createLogger(options: {
  json: boolean;
  stream?: NodeJS.WritableStream;
  /** The lowest level written (default info). */
  level?: Level;
}): Logger {
  const stream = options.stream ?? process.stderr;
  const lowest = LEVELS.indexOf(options.level ?? 'info');
  return {
    log(level, message, fields = {}) {
      if (LEVELS.indexOf(level) < lowest) return;
      if (options.json) {
        stream.write(
          `${JSON.stringify({ time: new Date().toISOString(), level, msg: message, ...fields })}\n`,
        );
        return;
      }
      const extra = Object.entries(fields)
        .filter(([, value]) => value !== undefined)
        .map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`)
        .join(' ');
      stream.write(`${level === 'info' ? '' : `${level}: `}${message}${extra ? ` ${extra}` : ''}\n`);
    },
  };
}
