import { describe, expect, it } from 'vitest';
import { codeLabel, ERROR_CATALOGUE } from '../src/core/error-catalogue/index.js';
import { body, startApi } from './api-harness.js';
import { BACKENDS } from './store-backends.js';

type Doc = {
  openapi: string;
  paths: Record<
    string,
    Record<
      string,
      {
        operationId: string;
        parameters: Array<{ name: string; in: string }>;
        requestBody?: { content: Record<string, { schema: { properties?: Record<string, unknown> } }> };
        responses: Record<string, unknown>;
      }
    >
  >;
};

/** The operations the API promises (a route added later must be documented too: see the equality below). */
const REQUIRED = [
  'GET /api/v1/contacts',
  'POST /api/v1/contacts',
  'POST /api/v1/contacts/bulk',
  'GET /api/v1/contacts/{id}',
  'PATCH /api/v1/contacts/{id}',
  'GET /api/v1/contacts/{id}/explain',
  'GET /api/v1/contacts/{id}/timeline',
  'POST /api/v1/contacts/{id}/consent',
  'GET /api/v1/errors',
  'GET /api/v1/errors/{code}',
  'GET /api/v1/templates',
  'POST /api/v1/templates/sync',
  'POST /api/v1/segments/preview',
  'GET /api/v1/senders',
  'GET /api/v1/senders/{phoneNumberId}',
  'GET /api/v1/campaigns',
  'GET /api/v1/campaigns/{id}',
  'GET /api/v1/campaigns/{id}/preview',
  'POST /api/v1/campaigns',
  'POST /api/v1/campaigns/{id}/schedule',
  'POST /api/v1/campaigns/{id}/start',
  'GET /api/v1/campaigns/{id}/recipients',
  'POST /api/v1/campaigns/{id}/pause',
  'POST /api/v1/campaigns/{id}/resume',
  'POST /api/v1/campaigns/{id}/cancel',
  'POST /api/v1/messages',
  'GET /api/v1/messages/{id}',
  'GET /api/v1/webhooks/quarantine',
  'POST /api/v1/webhooks/quarantine/replay',
  'GET /api/v1/diagnose',
  'GET /api/v1/openapi.json',
  'GET /api/v1/docs',
];

describe.each(BACKENDS)('REST API: error catalogue, OpenAPI document, docs page ($name)', (backend) => {
  it('serves the error catalogue, one code (ranges included), and 404 for an unknown code', async () => {
    const rig = await startApi(backend);
    const all = body<{ items: Array<{ code: number; label: string; class: string }> }>(await rig.call('GET', '/api/v1/errors'));
    expect(all.items.map((e) => e.label)).toEqual(ERROR_CATALOGUE.map(codeLabel));
    const cap = await rig.call('GET', '/api/v1/errors/131049');
    expect(cap).toMatchObject({
      status: 200,
      json: { code: 131049, label: '131049', class: ERROR_CATALOGUE.find((e) => e.code === 131049)?.class },
    });
    const ranged = ERROR_CATALOGUE.find((e) => e.codeTo !== undefined);
    if (ranged?.codeTo !== undefined) {
      expect(await rig.call('GET', `/api/v1/errors/${ranged.codeTo}`)).toMatchObject({
        status: 200,
        json: { code: ranged.code, codeTo: ranged.codeTo },
      });
    }
    expect(await rig.call('GET', '/api/v1/errors/999999999')).toMatchObject({ status: 404, json: { error: 'unknown_error_code' } });
    expect(await rig.call('GET', '/api/v1/errors/cap')).toMatchObject({
      status: 400,
      json: { error: 'invalid_params', issues: [{ path: 'code' }] },
    });
  });

  it('documents every registered route in an OpenAPI 3.1 document, with schemas from the zod validators', async () => {
    const rig = await startApi(backend);
    const r = await rig.call('GET', '/api/v1/openapi.json');
    expect(r.status).toBe(200);
    const doc = body<Doc>(r);
    expect(doc.openapi).toBe('3.1.0');
    const documented = Object.entries(doc.paths)
      .flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`))
      .sort();
    const registered = rig.routes
      .filter((x) => x.url.startsWith('/api/v1/'))
      .map((x) => `${x.method} ${x.url.replace(/:(\w+)/g, '{$1}')}`)
      .sort();
    expect(registered).toEqual(expect.arrayContaining(REQUIRED));
    expect(documented).toEqual(registered);
    const send = doc.paths['/api/v1/messages']?.['post'];
    expect(Object.keys(send?.requestBody?.content['application/json']?.schema.properties ?? {}).sort()).toEqual([
      'category',
      'from',
      'idempotencyKey',
      'reference',
      'template',
      'text',
      'to',
    ]);
    expect(Object.keys(send?.responses ?? {})).toEqual(expect.arrayContaining(['200', '202', '400', '401', '429', '503']));
    expect(doc.paths['/api/v1/contacts']?.['get']?.parameters.map((p) => `${p.in}:${p.name}`)).toEqual([
      'query:limit',
      'query:after',
      'query:phone',
      'query:wa_id',
      'query:bsuid',
      'query:tag',
      'query:default_country',
    ]);
    const upsert = doc.paths['/api/v1/contacts']?.['post'];
    expect(Object.keys(upsert?.requestBody?.content['application/json']?.schema.properties ?? {}).sort()).toEqual([
      'attributes',
      'bsuid',
      'consent',
      'name',
      'phone',
      'tags',
      'waId',
    ]);
    expect(Object.keys(upsert?.responses ?? {})).toEqual(expect.arrayContaining(['200', '201', '400', '409']));
    // The bulk body: a JSON array of the same rows, or NDJSON whose lines are those rows.
    const bulk = doc.paths['/api/v1/contacts/bulk']?.['post']?.requestBody?.content as Record<string, Record<string, unknown>>;
    expect(Object.keys(bulk)).toEqual(['application/json', 'application/x-ndjson']);
    expect(bulk['application/json']?.['schema']).toMatchObject({
      type: 'array',
      maxItems: 10_000,
      items: { properties: { phone: {}, consent: {} } },
    });
    expect(bulk['application/x-ndjson']?.['schema']).toMatchObject({
      properties: { phone: {}, consent: {} },
      additionalProperties: false,
    });
    expect(doc.paths['/api/v1/contacts/{id}/explain']?.['get']?.parameters.map((p) => `${p.in}:${p.name}`)).toEqual(['path:id']);
    expect(doc.paths['/api/v1/campaigns/{id}/preview']?.['get']?.parameters.map((p) => `${p.in}:${p.name}`)).toEqual([
      'path:id',
      'query:sample',
      'query:contact',
    ]);
    expect(doc.paths['/api/v1/campaigns/{id}/recipients']?.['get']?.parameters.map((p) => `${p.in}:${p.name}`)).toEqual([
      'path:id',
      'query:limit',
      'query:after',
      'query:status',
      'query:outcome',
    ]);
    const create = doc.paths['/api/v1/campaigns']?.['post'];
    expect(Object.keys(create?.requestBody?.content['application/json']?.schema.properties ?? {}).sort()).toEqual([
      'endsAt',
      'frequencyCap',
      'name',
      'parameters',
      'policyPreset',
      'scheduledAt',
      'segment',
      'sender',
      'senderPool',
      'template',
      'timing',
    ]);
    expect(Object.keys(create?.responses ?? {})).toEqual(expect.arrayContaining(['201', '400', '401', '429']));
    expect(Object.keys(doc.paths['/api/v1/templates/sync']?.['post']?.responses ?? {})).toEqual(
      expect.arrayContaining(['200', '502', '503']),
    );
    expect(doc.paths['/api/v1/senders/{phoneNumberId}']?.['get']?.parameters.map((p) => `${p.in}:${p.name}`)).toEqual([
      'path:phoneNumberId',
    ]);
    expect(Object.keys(doc.paths['/api/v1/senders/{phoneNumberId}']?.['get']?.responses ?? {})).toEqual(
      expect.arrayContaining(['200', '400', '401', '404']),
    );
    const ids = Object.values(doc.paths).flatMap((ops) => Object.values(ops).map((o) => o.operationId));
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('serves a self-contained docs page that lists every operation', async () => {
    const rig = await startApi(backend);
    const doc = body<Doc>(await rig.call('GET', '/api/v1/openapi.json'));
    const page = await rig.call('GET', '/api/v1/docs');
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.text).not.toMatch(/<script|https?:\/\//);
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        expect(page.text).toContain(`<code>${method.toUpperCase()}</code></td><td><code>${path}</code>`);
        expect(page.text).toContain(op.operationId);
      }
    }
  });

  it('answers unknown API paths with a JSON 404', async () => {
    const rig = await startApi(backend);
    expect(await rig.call('GET', '/api/v1/nothing-here')).toMatchObject({ status: 404, json: { error: 'not_found' } });
  });
});
