import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { ApiScope } from '../../../app/api-scope.js';
import { parseInput } from './api-error.js';
import { checkBodyType, DEFAULT_BODY_TYPES, ndjsonLines, type BodyType } from './body-types.js';
import { enterIdempotent, readIdempotencyKey, recordAnswer, Sweeper, type IdempotencyDeps, type IdempotencyKey } from './idempotency.js';
import { NO_QUERY, strictTop } from './strict-inputs.js';

export interface RouteResponse {
  description: string;
  /** JSON body schema; absent for bodies that are not JSON (text, HTML) or have no fixed shape. */
  schema?: z.ZodType;
  /** Content type when not JSON. */
  contentType?: string;
}

/**
 * One API operation: its schemas serve both validation at the edge and the OpenAPI document, so
 * the document cannot drift from what the server accepts. Unknown query parameters, path
 * parameters and top-level body fields are refused (the object schemas are made strict).
 */
export interface RouteSpec<P extends z.ZodType = z.ZodType, Q extends z.ZodType = z.ZodType, B extends z.ZodType = z.ZodType> {
  method: 'GET' | 'POST' | 'PATCH';
  /** Fastify syntax, relative to the API prefix: `/contacts/:id`. */
  url: string;
  operationId: string;
  /** The least a token must hold to call it; `public` needs no token. */
  scope: ApiScope;
  summary: string;
  tag: string;
  params?: P;
  query?: Q;
  body?: B;
  /**
   * A POST that creates something: an `Idempotency-Key` header makes a retry get the first answer
   * back instead of creating it again (see docs/api.md).
   */
  idempotent?: boolean;
  /** Body media types it takes (default `application/json`); an NDJSON body reaches `body` as an array. */
  contentTypes?: readonly BodyType[];
  /** Largest body in bytes (default the server's, 1 MiB); a larger one gets 413. */
  bodyLimit?: number;
  responses: Record<number, RouteResponse>;
  handler(input: {
    params: z.output<P>;
    query: z.output<Q>;
    body: z.output<B>;
    /** On an idempotent route, the request's Idempotency-Key and whose it is; null without the header. */
    idempotency: IdempotencyKey | null;
    request: FastifyRequest;
    reply: FastifyReply;
  }): Promise<unknown>;
}

export type AnyRoute = RouteSpec<z.ZodType, z.ZodType, z.ZodType>;

/** Keeps the handler's inputs typed by the route's own schemas. */
export function route<P extends z.ZodType = z.ZodType, Q extends z.ZodType = z.ZodType, B extends z.ZodType = z.ZodType>(
  spec: RouteSpec<P, Q, B>,
): AnyRoute {
  return spec as unknown as AnyRoute;
}

/** The schemas requests are checked against: the route's own, with unknown keys refused. */
export function edgeSchemas(spec: AnyRoute): { params?: z.ZodType; query: z.ZodType; body?: z.ZodType } {
  return {
    ...(spec.params ? { params: strictTop(spec.params) } : {}),
    query: spec.query ? strictTop(spec.query) : NO_QUERY,
    ...(spec.body ? { body: strictTop(spec.body) } : {}),
  };
}

export interface RegisterOptions {
  /** Where idempotency keys are kept; routes marked `idempotent` need it. */
  idempotency: IdempotencyDeps | null;
}

/**
 * Registers the routes on `app`: the body's type is checked before it is read, then every part of
 * the request is parsed with the route's zod schemas, then (idempotent routes) the key is claimed.
 */
export function registerRoutes(app: FastifyInstance, routes: readonly AnyRoute[], options: RegisterOptions): void {
  const idem = options.idempotency;
  const withSweeper = idem === null ? null : { ...idem, sweeper: new Sweeper(idem.store) };
  for (const spec of routes) {
    if (spec.idempotent === true && (withSweeper === null || spec.method !== 'POST'))
      throw new Error(`${spec.method} ${spec.url}: only a POST can be idempotent, and it needs the idempotency store`);
    const schemas = edgeSchemas(spec);
    const accepted = spec.contentTypes ?? DEFAULT_BODY_TYPES;
    app.route({
      method: spec.method,
      url: spec.url,
      config: { scope: spec.scope, contentTypes: accepted },
      ...(spec.bodyLimit !== undefined ? { bodyLimit: spec.bodyLimit } : {}),
      // A GET's body is never read, whatever Content-Type a client library sends with it.
      ...(spec.method !== 'GET'
        ? {
            preParsing: async (request: FastifyRequest, _reply: FastifyReply, payload: unknown) => {
              checkBodyType(request, accepted);
              return payload;
            },
          }
        : {}),
      ...(spec.idempotent === true && idem !== null ? { onSend: recordAnswer(idem) } : {}),
      handler: async (request, reply) => {
        const key = spec.idempotent === true ? readIdempotencyKey(request) : null;
        const params = schemas.params ? parseInput(schemas.params, request.params, 'params') : undefined;
        const query = parseInput(schemas.query, request.query, 'query');
        const body = schemas.body ? parseInput(schemas.body, request.body, 'body', ndjsonLines(request.body)) : undefined;
        let idempotency: IdempotencyKey | null = null;
        if (key !== null && withSweeper !== null) {
          const entered = await enterIdempotent(withSweeper, request, reply, key);
          if (entered === 'replayed') return reply;
          idempotency = entered;
        }
        return spec.handler({ params, query, body, idempotency, request, reply });
      },
    });
  }
}
