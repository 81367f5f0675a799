import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';

export interface Issue {
  /** Dotted path of the offending field (`template.name`, `ids.0`), or `(root)`. */
  path: string;
  message: string;
}

/** The one error shape of the API: a stable machine code, a sentence, and field issues for 400s. */
export const errorSchema = z.object({
  error: z.string().describe('machine code, e.g. invalid_body, unauthorized, not_found'),
  message: z.string().optional(),
  issues: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
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

/** Parses one part of a request with its schema; a failure names every field and its problem. */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown, part: InputPart): z.output<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  // An empty key is shown as "" so every issue has a path to read.
  const dotted = (path: readonly PropertyKey[]) =>
    path.length === 0 ? '(root)' : path.map((p) => (String(p) === '' ? '""' : String(p))).join('.');
  // An unknown field is named by its own path, so `segment.tag` points at the typo itself.
  const issues = parsed.error.issues.flatMap((i) =>
    i.code === 'unrecognized_keys'
      ? i.keys.map((key) => ({ path: dotted([...i.path, key]), message: 'unknown field: this request takes no such field' }))
      : [{ path: dotted(i.path), message: i.message }],
  );
  throw new ApiError(
    400,
    `invalid_${part}`,
    `the request ${part} is not valid: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`,
    issues,
  );
}

/** Fastify's own 4xx (bad JSON, wrong content type, body too large) keep their status, as JSON. */
export function apiErrorHandler(error: FastifyError | ApiError | Error, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  if (error instanceof ApiError) {
    return reply.code(error.status).send({ error: error.code, message: error.message, ...(error.issues ? { issues: error.issues } : {}) });
  }
  const status = 'statusCode' in error && typeof error.statusCode === 'number' ? error.statusCode : 500;
  if (status >= 400 && status < 500) {
    const code =
      'code' in error && error.code === 'FST_ERR_CTP_INVALID_JSON_BODY'
        ? 'invalid_json'
        : status === 415
          ? 'unsupported_media_type'
          : status === 413
            ? 'body_too_large'
            : 'bad_request';
    return reply.code(status).send({ error: code, message: error.message });
  }
  request.log.error({ err: error }, 'api request failed');
  return reply.code(500).send({ error: 'internal', message: 'the request failed on our side; the server log has the details' });
}
