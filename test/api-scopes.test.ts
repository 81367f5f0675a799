import { describe, expect, it } from 'vitest';
import { createApiToken } from '../src/app/api-tokens.js';
import { ADMIN_TOKEN, body, startApi, T0, type ApiRig } from './api-harness.js';
import { BACKENDS } from './store-backends.js';

type Op = { 'x-required-scope': string; security: Array<Record<string, string[]>>; responses: Record<string, unknown> };
type Doc = { paths: Record<string, Record<string, Op>>; security: unknown };

async function tokens(rig: ApiRig): Promise<Record<'read' | 'write' | 'admin', string>> {
  const make = async (scope: 'read' | 'write' | 'admin') => (await createApiToken(rig.store, { name: scope, scope }, T0)).token;
  return { read: await make('read'), write: await make('write'), admin: await make('admin') };
}

/** A URL for each templated route: ids that may or may not exist (a 404 is an answer past the scope check). */
const concrete = (url: string): string =>
  url.replace(':id', '1').replace(':code', '131049').replace(':phoneNumberId', '106540352242922').replace('{id}', '1');

describe.each(BACKENDS)('REST API: token scopes ($name)', (backend) => {
  it('lets each scope call the routes of its scope and below, and refuses the rest with 403 naming both scopes', async () => {
    const rig = await startApi(backend);
    const t = await tokens(rig);
    const { ids } = await rig.store.upsertContacts([{ phoneE164: '+447700900123' }], T0);
    const read = () => rig.call('GET', '/api/v1/contacts', {});
    const write = (token: string) =>
      rig.call('POST', `/api/v1/contacts/${ids[0]}/consent`, { token, body: { category: 'marketing', status: 'granted', source: 'form' } });
    const admin = (token: string) => rig.call('POST', '/api/v1/webhooks/quarantine/replay', { token, body: { all: true } });
    const status = async (token: string) => [
      (await rig.call('GET', '/api/v1/contacts', { token })).status,
      (await write(token)).status,
      (await admin(token)).status,
    ];
    expect(await status(t.read)).toEqual([200, 403, 403]);
    expect(await status(t.write)).toEqual([200, 200, 403]);
    expect(await status(t.admin)).toEqual([200, 200, 200]);
    expect(await status(ADMIN_TOKEN)).toEqual([200, 200, 200]);
    expect((await read()).status).toBe(200);

    const refused = await write(t.read);
    expect(refused.json).toEqual({
      error: 'insufficient_scope',
      message: "this operation needs a token of scope write; this token's scope is read (create one with pacer token create --scope write)",
    });
    expect(refused.headers['www-authenticate']).toBe('Bearer error="insufficient_scope", scope="write"');
    expect(await admin(t.write)).toMatchObject({
      status: 403,
      json: { message: expect.stringContaining("needs a token of scope admin; this token's scope is write") as string },
    });
    // Nothing was written by the refused request: the consent stays as the write token set it.
    expect((await rig.store.consentHistory(ids[0] ?? 0)).length).toBe(3);
    const metrics = await rig.call('GET', '/metrics', { token: null });
    expect(metrics.text).toContain('pacer_api_insufficient_scope_total 5');
  });

  it('enforces on every route the scope its OpenAPI operation states', async () => {
    const rig = await startApi(backend, { rateLimit: null });
    const t = await tokens(rig);
    const doc = body<Doc>(await rig.call('GET', '/api/v1/openapi.json', { token: null }));
    let checked = 0;
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        const needed = op['x-required-scope'];
        expect(['public', 'read', 'write', 'admin'], `${method} ${path}`).toContain(needed);
        const url = concrete(path.replace(/\{(\w+)\}/g, ':$1'));
        for (const scope of ['read', 'write', 'admin'] as const) {
          const rank = { public: 0, read: 1, write: 2, admin: 3 };
          const allowed = rank[scope] >= rank[needed as keyof typeof rank];
          const reply = await rig.call(method.toUpperCase() as 'GET' | 'POST', url, { token: t[scope], body: {} });
          expect(reply.status === 403, `${scope} token on ${method} ${path}: ${reply.text}`).toBe(!allowed);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThanOrEqual(3 * 22);
  });

  it("serves the OpenAPI document and the docs page without a token, stating each operation's scope", async () => {
    const rig = await startApi(backend);
    const r = await rig.call('GET', '/api/v1/openapi.json', { token: null });
    expect(r.status).toBe(200);
    const doc = body<Doc>(r);
    const op = (path: string, method: string) => doc.paths[path]?.[method];
    expect(op('/api/v1/contacts', 'get')).toMatchObject({ 'x-required-scope': 'read', security: [{ bearer: ['read'] }] });
    expect(op('/api/v1/messages', 'post')).toMatchObject({ 'x-required-scope': 'write', security: [{ bearer: ['write'] }] });
    expect(op('/api/v1/webhooks/quarantine/replay', 'post')).toMatchObject({
      'x-required-scope': 'admin',
      security: [{ bearer: ['admin'] }],
    });
    expect(op('/api/v1/openapi.json', 'get')).toMatchObject({ 'x-required-scope': 'public', security: [] });
    expect(Object.keys(op('/api/v1/openapi.json', 'get')?.responses ?? {})).not.toContain('401');
    expect(Object.keys(op('/api/v1/messages', 'post')?.responses ?? {})).toEqual(expect.arrayContaining(['401', '403', '409', '422']));
    const page = await rig.call('GET', '/api/v1/docs', { token: null });
    expect(page.status).toBe(200);
    expect(page.text).toMatch(/<code>\/api\/v1\/webhooks\/quarantine\/replay<\/code><\/td><td>admin</);
    expect(page.text).toMatch(/<code>\/api\/v1\/messages<\/code><\/td><td>write · idempotent</);
  });

  it('still needs a valid token for everything else, whatever the scope of the route', async () => {
    const rig = await startApi(backend);
    expect((await rig.call('GET', '/api/v1/contacts', { token: null })).status).toBe(401);
    expect((await rig.call('GET', '/api/v1/no-such-route', { token: null })).status).toBe(401);
    const t = await tokens(rig);
    expect(await rig.call('GET', '/api/v1/no-such-route', { token: t.read })).toMatchObject({ status: 404, json: { error: 'not_found' } });
  });
});
