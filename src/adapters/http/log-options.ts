import type { FastifyServerOptions } from 'fastify';

export type HttpLogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

export interface HttpLoggerOptions {
  level?: HttpLogLevel;
  /** Where log lines go (one JSON object per line); stdout by default. */
  stream?: { write(line: string): void };
}

/** Headers that carry credentials or signatures; censored wherever a logger meets them. */
const SECRET_HEADERS = ['authorization', 'cookie', 'x-hub-signature-256', 'x-hub-signature', 'x-api-key'];

interface LoggedRequest {
  method: string;
  url: string;
  routeOptions?: { url?: string };
  ip?: string;
}

/**
 * The query string can hold the verify token (`hub.verify_token`) and the challenge, so logs keep the
 * path only. Bodies and headers are never logged: they hold phone numbers and signatures.
 */
export function safeRequestSummary(req: LoggedRequest): { method: string; url: string; remoteAddress?: string } {
  const q = req.url.indexOf('?');
  const url = q === -1 ? req.url : `${req.url.slice(0, q)}?…`;
  return req.ip === undefined ? { method: req.method, url } : { method: req.method, url, remoteAddress: req.ip };
}

/** Fastify (pino) logger settings: request summaries without secrets, censored credential headers. */
export function buildLoggerOptions(options: HttpLoggerOptions = {}): NonNullable<FastifyServerOptions['logger']> {
  const paths = SECRET_HEADERS.flatMap((h) => [`req.headers["${h}"]`, `headers["${h}"]`, `request.headers["${h}"]`]);
  return {
    level: options.level ?? 'info',
    ...(options.stream ? { stream: options.stream } : {}),
    redact: { paths, censor: '[redacted]' },
    serializers: {
      req: (req) => safeRequestSummary(req as unknown as LoggedRequest),
    },
  };
}
