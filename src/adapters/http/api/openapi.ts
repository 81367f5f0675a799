import { z } from 'zod';
import { errorSchema } from './api-error.js';
import { JSON_TYPE, type AnyRoute } from './route-table.js';

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

/**
 * Each accepted body type with its schema. A type of one JSON value a line (NDJSON) is documented as
 * text whose lines each follow the JSON array's item schema (`x-item-schema`; OpenAPI 3.1 has no
 * word for streams of items).
 */
function requestContent(body: z.ZodType, accepts: readonly string[]): JsonSchema {
  const schema = jsonSchema(body, 'input');
  return Object.fromEntries(
    accepts.map((type) =>
      type === JSON_TYPE || schema['items'] === undefined
        ? [type, { schema }]
        : [
            type,
            {
              schema: { type: 'string', description: 'one JSON value a line, each an item of the JSON array form' },
              'x-item-schema': schema['items'],
            },
          ],
    ),
  );
}

const ERROR_CONTENT = { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } };

function operation(spec: AnyRoute): JsonSchema {
  const responses: Record<string, JsonSchema> = {};
  for (const [status, r] of Object.entries(spec.responses)) {
    const content =
      r.contentType !== undefined
        ? { [r.contentType]: { schema: { type: 'string' } } }
        : { 'application/json': { schema: r.schema ? jsonSchema(r.schema, 'output') : {} } };
    responses[status] = { description: r.description, content };
  }
  if (spec.params || spec.query || spec.body)
    responses['400'] ??= { description: 'A parameter or the body is invalid; `issues` names each field', content: ERROR_CONTENT };
  responses['401'] ??= { description: 'Missing, unknown or revoked bearer token', content: ERROR_CONTENT };
  responses['429'] ??= { description: 'Too many requests for this token; see Retry-After', content: ERROR_CONTENT };
  return {
    operationId: spec.operationId,
    summary: spec.summary,
    tags: [spec.tag],
    parameters: [...parameters(spec.params, 'path'), ...parameters(spec.query, 'query')],
    ...(spec.body ? { requestBody: { required: true, content: requestContent(spec.body, spec.accepts ?? [JSON_TYPE]) } } : {}),
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
        'Operate Pacer: contacts and consent, per-category send decisions, campaigns, one-off messages, the error catalogue, the webhook quarantine and the diagnosis of delivery failures. Every route takes `Authorization: Bearer <token>` (see `pacer token create`).',
    },
    components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } }, schemas: { Error: jsonSchema(errorSchema, 'output') } },
    security: [{ bearer: [] }],
    paths,
  };
}

const escape = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A self-contained page listing the operations of the document (no scripts, no CDN). */
export function renderDocsPage(doc: JsonSchema): string {
  const paths = doc['paths'] as Record<string, Record<string, { summary: string; operationId: string; tags: string[] }>>;
  const rows = Object.entries(paths).flatMap(([path, ops]) =>
    Object.entries(ops).map(
      ([method, op]) =>
        `<tr><td><code>${method.toUpperCase()}</code></td><td><code>${escape(path)}</code></td><td>${escape(op.tags.join(', '))}</td><td>${escape(op.summary)}</td><td><code>${escape(op.operationId)}</code></td></tr>`,
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
<table><thead><tr><th>Method</th><th>Path</th><th>Tag</th><th>Summary</th><th>Operation</th></tr></thead><tbody>
${rows.join('\n')}
</tbody></table>
</body></html>
`;
}
