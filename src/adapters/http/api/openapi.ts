import { z } from 'zod';
import { errorSchema } from './api-error.js';
import { IDEMPOTENCY_HEADER, MAX_KEY_LENGTH, REPLAYED_HEADER } from './idempotency.js';
import { edgeSchemas, type AnyRoute } from './route-table.js';

type JsonSchema = Record<string, unknown>;

function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema;
  return rest;
}

/** `/contacts/:id` → `/contacts/{id}`. */
export function openApiPath(url: string): string {
  return url.replace(/:(\w+)/g, '{$1}');
}

function parameters(schema: z.ZodType | undefined, where: 'path' | 'query'): JsonSchema[] {
  if (schema === undefined) return [];
  const s = jsonSchema(schema, 'input');
  const properties = (s['properties'] ?? {}) as Record<string, JsonSchema>;
  const required = new Set((s['required'] ?? []) as string[]);
  return Object.entries(properties).map(([name, p]) => ({
    name,
    in: where,
    required: where === 'path' || required.has(name),
    schema: p,
    ...(typeof p['description'] === 'string' ? { description: p['description'] } : {}),
  }));
}

const ERROR_CONTENT = { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } };

const IDEMPOTENCY_PARAMETER: JsonSchema = {
  name: IDEMPOTENCY_HEADER,
  in: 'header',
  required: false,
  schema: { type: 'string', minLength: 1, maxLength: MAX_KEY_LENGTH },
  description: `A key of your choice (a UUID, an order id) making retries safe: the same key with the same request gets the first answer back, with \`${REPLAYED_HEADER}: true\`; kept per token for PACER_IDEMPOTENCY_TTL (24 h by default)`,
};

function errorResponses(spec: AnyRoute, responses: Record<string, JsonSchema>): void {
  const add = (status: number, description: string) => (responses[String(status)] ??= { description, content: ERROR_CONTENT });
  if (spec.params || spec.query || spec.body || spec.idempotent === true)
    add(400, 'A parameter, a header or the body is invalid (an unknown query parameter too); `issues` names each');
  if (spec.scope !== 'public') {
    add(401, 'Missing, unknown or revoked bearer token');
    add(403, `The token's scope is below ${spec.scope} (error \`insufficient_scope\`)`);
    add(429, 'Too many requests for this token; see Retry-After');
  }
  if (spec.idempotent === true) {
    add(409, `A request with this ${IDEMPOTENCY_HEADER} is still running; retry after it is answered`);
    add(422, `This ${IDEMPOTENCY_HEADER} was used for a different request`);
  }
  if (spec.body) {
    add(413, 'The body is larger than the operation takes; the message names the limit');
    add(415, 'The body is not of a type the operation takes; the message names them');
  }
}

function requestBody(spec: AnyRoute, body: z.ZodType): JsonSchema {
  const schema = jsonSchema(body, 'input');
  const types = spec.contentTypes ?? ['application/json'];
  // An NDJSON body is the array's items, one per line.
  const content = Object.fromEntries(
    types.map((t) => [t, { schema: t === 'application/x-ndjson' && schema['items'] !== undefined ? schema['items'] : schema }]),
  );
  return { required: true, content };
}

function operation(spec: AnyRoute): JsonSchema {
  const responses: Record<string, JsonSchema> = {};
  for (const [status, r] of Object.entries(spec.responses)) {
    const content =
      r.contentType !== undefined
        ? { [r.contentType]: { schema: { type: 'string' } } }
        : { 'application/json': { schema: r.schema ? jsonSchema(r.schema, 'output') : {} } };
    responses[status] = { description: r.description, content };
  }
  errorResponses(spec, responses);
  const edge = edgeSchemas(spec);
  return {
    operationId: spec.operationId,
    summary: spec.summary,
    tags: [spec.tag],
    // OpenAPI 3.1 lets a bearer requirement list role names: the scope the token needs.
    security: spec.scope === 'public' ? [] : [{ bearer: [spec.scope] }],
    'x-required-scope': spec.scope,
    ...(spec.idempotent === true ? { 'x-idempotent': true } : {}),
    parameters: [
      ...parameters(edge.params, 'path'),
      ...parameters(spec.query === undefined ? undefined : edge.query, 'query'),
      ...(spec.idempotent === true ? [IDEMPOTENCY_PARAMETER] : []),
    ],
    ...(edge.body ? { requestBody: requestBody(spec, edge.body) } : {}),
    responses,
  };
}

/** The OpenAPI 3.1 document of the API, generated from the same route table the server registers. */
export function buildOpenApiDocument(routes: readonly AnyRoute[], prefix: string, version: string): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const spec of routes) {
    const path = `${prefix}${openApiPath(spec.url)}`;
    (paths[path] ??= {})[spec.method.toLowerCase()] = operation(spec);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Pacer REST API',
      version,
      description:
        'Operate Pacer: contacts and consent, per-category send decisions, campaigns, one-off messages, the error catalogue, the webhook quarantine and the diagnosis of delivery failures. Every operation but this document and the docs page takes `Authorization: Bearer <token>` (see `pacer token create --scope`), of at least the scope it names in `x-required-scope`: `read` sees, `write` also changes and sends, `admin` also replays webhooks. POSTs marked `x-idempotent` take an `Idempotency-Key` header.',
    },
    components: {
      securitySchemes: {
        bearer: {
          type: 'http',
          scheme: 'bearer',
          description: 'A token of scope read, write or admin (each includes the ones before it); PACER_ADMIN_TOKEN is admin',
        },
      },
      schemas: { Error: jsonSchema(errorSchema, 'output') },
    },
    security: [{ bearer: ['read'] }],
    paths,
  };
}

const escape = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A self-contained page listing the operations of the document (no scripts, no CDN). */
export function renderDocsPage(doc: JsonSchema): string {
  type Op = { summary: string; operationId: string; tags: string[]; 'x-required-scope': string; 'x-idempotent'?: boolean };
  const paths = doc['paths'] as Record<string, Record<string, Op>>;
  const rows = Object.entries(paths).flatMap(([path, ops]) =>
    Object.entries(ops).map(
      ([method, op]) =>
        `<tr><td><code>${method.toUpperCase()}</code></td><td><code>${escape(path)}</code></td><td>${escape(op['x-required-scope'])}${op['x-idempotent'] === true ? ' · idempotent' : ''}</td><td>${escape(op.tags.join(', '))}</td><td>${escape(op.summary)}</td><td><code>${escape(op.operationId)}</code></td></tr>`,
    ),
  );
  const info = doc['info'] as { title: string; version: string; description: string };
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escape(info.title)}</title>
<style>body{font-family:system-ui,sans-serif;margin:2rem;max-width:72rem}table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #ddd;padding:.35rem .6rem;text-align:left;vertical-align:top}code{font-size:.9em}</style>
</head><body>
<h1>${escape(info.title)} <small>${escape(info.version)}</small></h1>
<p>${escape(info.description)}</p>
<p>The machine-readable document: <a href="openapi.json"><code>openapi.json</code></a> (OpenAPI 3.1).</p>
<table><thead><tr><th>Method</th><th>Path</th><th>Scope</th><th>Tag</th><th>Summary</th><th>Operation</th></tr></thead><tbody>
${rows.join('\n')}
</tbody></table>
</body></html>
`;
}
