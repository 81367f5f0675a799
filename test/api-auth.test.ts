import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createApiToken, hashApiToken } from '../src/app/api-tokens.js';
import { ADMIN_TOKEN, readRows, startApi, T0 } from './api-harness.js';
import { BACKENDS } from './store-backends.js';

describe.each(BACKENDS)('REST API: authentication, rate limit, token storage ($name)', (backend) => {
  it('refuses requests without a usable bearer token with 401 and a JSON error naming the problem', async () => {
    const rig = await startApi(backend);
    const missing = await rig.call('GET', '/api/v1/contacts', { token: null });
    expect(missing.status).toBe(401);
    expect(missing.headers['www-authenticate']).toBe('Bearer');
    expect(missing.json).toEqual({ error: 'unauthorized', message: expect.stringContaining('missing bearer token') as string });
    const wrong = await rig.call('GET', '/api/v1/contacts', { token: 'pacer_not-a-real-token' });
    expect(wrong).toMatchObject({ status: 401, json: { error: 'unauthorized', message: 'unknown API token' } });
    const malformed = await rig.call('GET', '/api/v1/contacts', { token: null, headers: { authorization: `Basic ${rig.token}` } });
    expect(malformed).toMatchObject({ status: 401, json: { message: expect.stringContaining('malformed') as string } });
    // Every route is behind the token but the API's own reference (the document and its page).
    const PUBLIC = ['GET /api/v1/openapi.json', 'GET /api/v1/docs'];
    for (const r of rig.routes.filter((x) => x.url.startsWith('/api/v1'))) {
      const reply = await rig.call(r.method as 'GET' | 'POST', r.url.replace(':id', '1').replace(':code', '131049'), { token: null });
      expect(reply.status, `${r.method} ${r.url}`).toBe(PUBLIC.includes(`${r.method} ${r.url}`) ? 200 : 401);
    }
    // A token that is wrong does not matter there either: nothing is checked.
    expect((await rig.call('GET', '/api/v1/openapi.json', { token: 'pacer_not-a-real-token' })).status).toBe(200);
    expect((await rig.call('GET', '/api/v1/contacts')).status).toBe(200);
  });

  it('accepts PACER_ADMIN_TOKEN as the bootstrap token, and refuses a revoked token', async () => {
    const rig = await startApi(backend);
    expect((await rig.call('GET', '/api/v1/templates', { token: ADMIN_TOKEN })).status).toBe(200);
    expect((await rig.call('GET', '/api/v1/templates', { token: `${ADMIN_TOKEN}x` })).status).toBe(401);
    const second = await createApiToken(rig.store, { name: 'to revoke', scope: 'read' }, T0);
    expect((await rig.call('GET', '/api/v1/templates', { token: second.token })).status).toBe(200);
    expect(await rig.store.revokeApiToken(second.id, T0 + 1)).toBe(true);
    expect(await rig.call('GET', '/api/v1/templates', { token: second.token })).toMatchObject({
      status: 401,
      json: { error: 'unauthorized', message: 'this API token was revoked' },
    });
    expect((await rig.call('GET', '/api/v1/templates')).status).toBe(200);
  });

  it('without an admin token configured, only stored tokens open the API', async () => {
    const rig = await startApi(backend, { adminToken: null });
    expect((await rig.call('GET', '/api/v1/templates', { token: ADMIN_TOKEN })).status).toBe(401);
    expect((await rig.call('GET', '/api/v1/templates')).status).toBe(200);
  });

  it('stores only the SHA-256 of a token: the plain token is in no column of its row', async () => {
    const rig = await startApi(backend);
    const rows = await readRows(rig.place, 'SELECT * FROM api_tokens');
    expect(rows).toHaveLength(1);
    const row = rows[0] ?? {};
    expect(row['token_hash']).toBe(createHash('sha256').update(rig.token).digest('hex'));
    expect(row['token_hash']).toBe(hashApiToken(rig.token));
    expect(rig.token).toMatch(/^pacer_[A-Za-z0-9_-]{43}$/);
    for (const value of Object.values(row)) expect(String(value)).not.toContain(rig.token.slice('pacer_'.length));
  });

  it('limits each token to its bucket: 429 with Retry-After, other tokens unaffected, refilled over time', async () => {
    const rig = await startApi(backend, { rateLimit: { perSecond: 2, burst: 5 } });
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await rig.call('GET', '/api/v1/templates')).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    const limited = await rig.call('GET', '/api/v1/templates');
    expect(limited).toMatchObject({ status: 429, json: { error: 'rate_limited' } });
    expect(limited.headers['retry-after']).toBe('1');
    expect((await rig.call('GET', '/api/v1/templates', { token: ADMIN_TOKEN })).status).toBe(200);
    rig.clock.t += 1000;
    expect((await rig.call('GET', '/api/v1/templates')).status).toBe(200);
    const metrics = await rig.call('GET', '/metrics', { token: null });
    expect(metrics.text).toContain('pacer_api_rate_limited_total 2');
  });

  it('never writes a token to the log, accepted or refused', async () => {
    const rig = await startApi(backend);
    await rig.call('GET', '/api/v1/contacts');
    await rig.call('GET', '/api/v1/contacts', { token: ADMIN_TOKEN });
    await rig.call('GET', '/api/v1/contacts', { token: 'pacer_wrong-token-value-123' });
    await rig.call('POST', '/api/v1/messages', { body: { to: 'x' } });
    const log = rig.logText();
    expect(log).toContain('api request refused');
    expect(log).toContain('/api/v1/contacts');
    for (const secret of [rig.token, ADMIN_TOKEN, 'pacer_wrong-token-value-123']) expect(log).not.toContain(secret);
  });

  it('serves /metrics without a token only when the server binds a loopback address', async () => {
    const open = await startApi(backend);
    expect((await open.call('GET', '/metrics', { token: null })).status).toBe(200);
    const exposed = await startApi(backend, { host: '0.0.0.0' });
    expect(await exposed.call('GET', '/metrics', { token: null })).toMatchObject({ status: 401, json: { error: 'unauthorized' } });
    const withToken = await exposed.call('GET', '/metrics');
    expect(withToken.status).toBe(200);
    expect(withToken.headers['content-type']).toContain('text/plain');
    expect(withToken.text).toMatch(/^# HELP pacer_outbox_rows /);
  });
});
