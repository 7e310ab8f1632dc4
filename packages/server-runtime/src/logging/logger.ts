import { type LevelWithSilent, type Logger, pino } from 'pino';

/** One JSON line per event on stdout, with ISO timestamps and the service name on every line. */
export function createLogger(service: string, level: LevelWithSilent): Logger {
  return pino({
    level,
    base: { service },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    redact: { paths: ['req.headers.authorization', 'req.headers.cookie'], censor: '[redacted]' },
  });
}
