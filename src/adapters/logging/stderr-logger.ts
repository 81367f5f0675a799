import { LOG_LEVELS, type LogFields, type Logger, type LogLevel } from '../../ports/logger.js';

export interface StderrLoggerOptions {
  /** The least severe level written (PACER_LOG_LEVEL); `silent` writes nothing. */
  level: LogLevel | 'silent';
  /** Where lines go; standard error by default. */
  write?: (line: string) => void;
}

/**
 * The engine's own log (the HTTP server logs requests through its own logger): one line per entry,
 * `pacer <level>: <message>` and the fields as JSON, e.g.
 * `pacer warn: dispatch failed, retrying {"error":"StoreError","message":"claimDue: ...","code":"unavailable"}`.
 */
export function stderrLogger(options: StderrLoggerOptions): Logger {
  const write = options.write ?? ((line: string) => void process.stderr.write(line));
  const threshold = options.level === 'silent' ? -1 : LOG_LEVELS.indexOf(options.level);
  const at =
    (level: LogLevel) =>
    (message: string, fields?: LogFields): void => {
      if (LOG_LEVELS.indexOf(level) > threshold) return;
      const extra = fields === undefined || Object.keys(fields).length === 0 ? '' : ` ${JSON.stringify(fields)}`;
      write(`pacer ${level}: ${message}${extra}\n`);
    };
  return { error: at('error'), warn: at('warn'), info: at('info'), debug: at('debug') };
}
