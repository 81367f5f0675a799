import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { ApiScope } from '../../../app/api-scope.js';
import { ApiError, parseInput } from './api-error.js';

/** The body type every route takes unless it lists others in `accepts`. */
export const JSON_TYPE = 'application/json';

export interface RouteResponse {
  description: string;
  /** JSON body schema; absent for bodies that are not JSON (text, HTML) or have no fixed shape. */
  schema?: z.ZodType;
  /** Content type when not JSON. */
  contentType?: string;
}

/**
 * One API operation: its schemas serve both validation at the edge and the OpenAPI document, so
 * the document cannot drift from what the server accepts.
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
  /** Content types the body may come in, when not JSON alone; another is answered 415. */
  accepts?: readonly string[];
  /** Largest body in bytes, when not the server's default (1 MiB); a larger one is answered 413. */
  bodyLimit?: number;
  responses: Record<number, RouteResponse>;
  handler(input: {
    params: z.output<P>;
    query: z.output<Q>;
    body: z.output<B>;
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

/** Registers the routes on `app`; request parts are parsed with the route's zod schemas first. */
export function registerRoutes(app: FastifyInstance, routes: readonly AnyRoute[]): void {
  for (const spec of routes) {
    const accepts = spec.accepts ?? [JSON_TYPE];
    app.route({
      method: spec.method,
      url: spec.url,
      ...(spec.bodyLimit === undefined ? {} : { bodyLimit: spec.bodyLimit }),
      handler: async (request, reply) => {
        const type = request.headers['content-type']?.split(';')[0]?.trim().toLowerCase();
        if (spec.body && type !== undefined && !accepts.includes(type)) {
          throw new ApiError(415, 'unsupported_media_type', `this route takes a body of type ${accepts.join(' or ')}, not ${type}`);
        }
        const params = spec.params ? parseInput(spec.params, request.params, 'params') : undefined;
        const query = spec.query ? parseInput(spec.query, request.query, 'query') : undefined;
        const body = spec.body ? parseInput(spec.body, request.body, 'body') : undefined;
        return spec.handler({ params, query, body, request, reply });
      },
    });
  }
}
