import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from './api-error.js';

/** The body media types a route may declare. */
export const BODY_TYPES = ['application/json', 'application/x-ndjson'] as const;
export type BodyType = (typeof BODY_TYPES)[number];

export const DEFAULT_BODY_TYPES: readonly BodyType[] = ['application/json'];

/** Line numbers (1-based, as an editor shows them) of each value of an NDJSON body, in order. */
const LINES = new WeakMap<object, readonly number[]>();

/** The line each item of an NDJSON body came from; undefined for any other body. */
export function ndjsonLines(body: unknown): readonly number[] | undefined {
  return typeof body === 'object' && body !== null ? LINES.get(body) : undefined;
}

/**
 * `application/x-ndjson`: one JSON value per line, blank lines skipped, as an array. A line that is
 * not JSON is refused with its number; the numbers of the others are kept for the route's errors.
 */
export function parseNdjson(text: string): unknown[] {
  const values: unknown[] = [];
  const lines: number[] = [];
  text.split('\n').forEach((raw, index) => {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (line.trim() === '') return;
    try {
      values.push(JSON.parse(line));
    } catch (error) {
      const why = error instanceof Error ? error.message : 'not JSON';
      throw new ApiError(400, 'invalid_ndjson', `line ${index + 1} is not valid JSON: ${why}`, [
        { path: '(line)', line: index + 1, message: `not valid JSON: ${why}` },
      ]);
    }
    lines.push(index + 1);
  });
  LINES.set(values, lines);
  return values;
}

export function registerNdjsonParser(app: FastifyInstance): void {
  app.addContentTypeParser('application/x-ndjson', { parseAs: 'string' }, (_request, body, done) => {
    try {
      done(null, parseNdjson(String(body)));
    } catch (error) {
      done(error as Error, undefined);
    }
  });
}

/** The media type without parameters (`application/json; charset=utf-8` → `application/json`). */
function mediaType(header: string): string {
  return (header.split(';')[0] ?? '').trim().toLowerCase();
}

function hasBody(request: FastifyRequest): boolean {
  const h = request.headers;
  return h['content-type'] !== undefined || h['transfer-encoding'] !== undefined || (h['content-length'] ?? '0') !== '0';
}

/** 415 before the body is read when it is not of a type the route takes; a request without a body passes. */
export function checkBodyType(request: FastifyRequest, accepted: readonly BodyType[]): void {
  if (!hasBody(request)) return;
  const header = request.headers['content-type'];
  const given = header === undefined ? null : mediaType(header);
  if (given !== null && accepted.some((t) => t === given)) return;
  throw new ApiError(
    415,
    'unsupported_media_type',
    `${given === null ? 'the body has no Content-Type' : `Content-Type ${given} is not accepted here`}: send ${accepted.join(' or ')}`,
  );
}
