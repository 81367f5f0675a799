import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { knownKeys } from './strict-inputs.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The body media types the route takes (the route table's `contentTypes`), named by a 415. */
    contentTypes?: readonly string[];
  }
}

export interface Issue {
  /** Dotted path of the offending field (`template.name`, `ids.0`), or `(root)`; `(line)` for a whole NDJSON line. */
  path: string;
  message: string;
  /** For an NDJSON body: the line (1-based) the field is on. */
  line?: number;
}

/** The one error shape of the API: a stable machine code, a sentence, and field issues for 400s. */
export const errorSchema = z.object({
  error: z.string().describe('machine code, e.g. invalid_body, unauthorized, insufficient_scope, not_found'),
  message: z.string().optional(),
  issues: z
    .array(z.object({ path: z.string(), message: z.string(), line: z.number().int().optional().describe('NDJSON bodies: the line') }))
    .optional(),
});

/** An expected refusal, answered as JSON with its status; anything else is a 500. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly issues?: readonly Issue[],
  ) {
    super(message);
  }
}

export function notFound(what: string): ApiError {
  return new ApiError(404, 'not_found', `${what} does not exist`);
}

export type InputPart = 'body' | 'query' | 'params';

const UNKNOWN: Record<InputPart, string> = { body: 'unknown field', query: 'unknown query parameter', params: 'unknown path parameter' };

function unknownKey(schema: z.ZodType, part: InputPart, atRoot: boolean): string {
  const known = atRoot ? knownKeys(schema) : [];
  if (!atRoot) return UNKNOWN[part];
  if (known.length === 0) return `${UNKNOWN[part]}: this operation takes none`;
  return `${UNKNOWN[part]}: this operation takes ${known.join(', ')}`;
}

/** Zod's issues as ours: one per unknown key, and NDJSON items named by their line. */
export function issuesOf(schema: z.ZodType, error: z.ZodError, part: InputPart, lines: readonly number[] | undefined): Issue[] {
  return error.issues.flatMap((i) => {
    const raw = i.path.map(String).map((k) => (k === '' ? '""' : k)); // an empty key still needs a name
    const paths = i.code === 'unrecognized_keys' ? i.keys.map((k) => [...raw, k === '' ? '""' : k]) : [raw];
    const message = i.code === 'unrecognized_keys' ? unknownKey(schema, part, raw.length === 0) : i.message;
    return paths.map((p): Issue => {
      const line = lines !== undefined && p.length > 0 ? lines[Number(p[0])] : undefined;
      if (line === undefined) return { path: p.length === 0 ? '(root)' : p.join('.'), message };
      return { path: p.length === 1 ? '(line)' : p.slice(1).join('.'), line, message };
    });
  });
}

/**
 * Parses one part of a request with its schema; a failure names every field and its problem. For
 * an NDJSON body, `lines` gives each item's line, and the issues name the line instead of the index.
 */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown, part: InputPart, lines?: readonly number[]): z.output<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issues = issuesOf(schema, parsed.error, part, lines);
  const named = (i: Issue) => `${i.line === undefined ? '' : `line ${i.line}: `}${i.path}: ${i.message}`;
  throw new ApiError(400, `invalid_${part}`, `the request ${part} is not valid: ${issues.map(named).join('; ')}`, issues);
}

function bytesText(n: number): string {
  return n >= 1024 * 1024 && n % (1024 * 1024) === 0 ? `${n / (1024 * 1024)} MiB (${n} bytes)` : `${n} bytes`;
}

/** Fastify's own 4xx (bad JSON, wrong content type, body too large) keep their status, as JSON. */
export function apiErrorHandler(error: FastifyError | ApiError | Error, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  if (error instanceof ApiError) {
    return reply.code(error.status).send({ error: error.code, message: error.message, ...(error.issues ? { issues: error.issues } : {}) });
  }
  const status = 'statusCode' in error && typeof error.statusCode === 'number' ? error.statusCode : 500;
  if (status === 413) {
    const limit = request.routeOptions.bodyLimit;
    return reply.code(413).send({
      error: 'body_too_large',
      message: `the request body is larger than this operation takes: at most ${bytesText(limit)}`,
    });
  }
  if (status === 415) {
    const accepted = request.routeOptions.config.contentTypes ?? ['application/json'];
    return reply.code(415).send({ error: 'unsupported_media_type', message: `${error.message}: send ${accepted.join(' or ')}` });
  }
  if (status >= 400 && status < 500) {
    const code = 'code' in error && error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' ? 'invalid_json' : 'bad_request';
    return reply.code(status).send({ error: code, message: error.message });
  }
  request.log.error({ err: error }, 'api request failed');
  return reply.code(500).send({ error: 'internal', message: 'the request failed on our side; the server log has the details' });
}
