/**
 * Logging as a port: the app layer says what happened, with structured fields, and `src/main` picks
 * where it goes. Fields carry ids, counts, codes, reasons and times; never a phone number, a message
 * text, a payload, a token or a secret (logs are read by more people than the database is).
 */

/** Most severe first; PACER_LOG_LEVEL names one (or `silent`). */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export type LogValue = string | number | boolean | null | readonly LogValue[] | { readonly [key: string]: LogValue };
export type LogFields = Readonly<Record<string, LogValue>>;

export interface Logger {
  error(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  debug(message: string, fields?: LogFields): void;
}

/** Drops everything. */
export const silentLogger: Logger = { error: () => undefined, warn: () => undefined, info: () => undefined, debug: () => undefined };

/**
 * An error as fields: its kind, and its message (infrastructure errors name the operation and the
 * driver's code, never bound values), plus `code` and `operation` when it has them.
 */
export function errorFields(error: unknown): LogFields {
  if (!(error instanceof Error)) return { error: typeof error, message: String(error) };
  const { code, operation } = error as { code?: unknown; operation?: unknown };
  return {
    error: error.name,
    message: error.message,
    ...(typeof code === 'string' ? { code } : {}),
    ...(typeof operation === 'string' ? { operation } : {}),
  };
}
