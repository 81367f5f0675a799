import { describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, startEdge, type EdgeRig } from './edge-harness.js';
import { BACKENDS } from './store-backends.js';

const GUESSER = '203.0.113.50';
const OTHER = '198.51.100.9';

const api = (rig: EdgeRig, token: string, from = GUESSER) =>
  rig.get('/api/v1/templates', { headers: { authorization: `Bearer ${token}` }, from });
const page = (rig: EdgeRig, token: string, from = GUESSER) =>
  rig.get('/templates', { headers: { authorization: `Bearer ${token}` }, from });

describe.each(BACKENDS)('Failed authentications, limited per client address on every surface ($name)', (backend) => {
  it('the API: ten wrong tokens, then 429 with Retry-After even for a right one; another address is unaffected', async () => {
    const rig = await startEdge(backend);
    for (let i = 0; i < 10; i++) expect((await api(rig, `pacer_guess-${i}`)).statusCode).toBe(401);
    const limited = await api(rig, 'pacer_guess-10');
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBe('6');
    expect(limited.json()).toMatchObject({ error: 'too_many_failures' });
    // No oracle: a right token from the guessing address is refused without being looked at.
    expect((await api(rig, rig.token)).statusCode).toBe(429);
    expect((await api(rig, rig.token, OTHER)).statusCode).toBe(200);
    expect((await page(rig, ADMIN_TOKEN, OTHER)).statusCode).toBe(200);
    // One try comes back every 6 s.
    rig.clock.t += 6_000;
    expect((await api(rig, rig.token)).statusCode).toBe(200);
  });

  it('the dashboard: bearer guesses on pages count, and the API refuses the address next (one shared limiter)', async () => {
    const rig = await startEdge(backend);
    for (let i = 0; i < 10; i++) expect((await page(rig, `pacer_guess-${i}`)).statusCode).toBe(303); // to /login
    const limited = await page(rig, 'pacer_guess-10');
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBe('6');
    expect(limited.body).toContain('Too many failed sign-ins from this address; try again in 6 s.');
    expect((await api(rig, rig.token)).statusCode).toBe(429);
    expect((await rig.form('/login', { token: rig.token })).statusCode).toBe(303); // from 127.0.0.1
    expect((await page(rig, rig.token, OTHER)).statusCode).toBe(200);
  });

  it('sign-in, API and dashboard share the tries: five wrong at the form and five on the API use them all', async () => {
    const rig = await startEdge(backend);
    for (let i = 0; i < 5; i++) expect((await rig.form('/login', { token: `pacer_guess-${i}` }, { from: GUESSER })).statusCode).toBe(401);
    for (let i = 0; i < 5; i++) expect((await api(rig, `pacer_guess-api-${i}`)).statusCode).toBe(401);
    expect((await page(rig, rig.token)).statusCode).toBe(429);
    expect((await rig.form('/login', { token: rig.token }, { from: GUESSER })).statusCode).toBe(429);
  });

  it('successes cost nothing: many right tokens, then still ten wrong ones before 429', async () => {
    const rig = await startEdge(backend);
    for (let i = 0; i < 30; i++) expect((await api(rig, rig.token)).statusCode).toBe(200);
    for (let i = 0; i < 10; i++) expect((await api(rig, `pacer_guess-${i}`)).statusCode).toBe(401);
    expect((await api(rig, 'pacer_guess-10')).statusCode).toBe(429);
    // A request without any token is not a guess: it is told to authenticate, as before.
    expect((await rig.get('/api/v1/templates', { from: OTHER })).statusCode).toBe(401);
  });

  it('counts the refusals in /metrics, by surface', async () => {
    const rig = await startEdge(backend);
    for (let i = 0; i < 12; i++) await api(rig, `pacer_guess-${i}`);
    await page(rig, 'pacer_guess-x');
    const metrics = await rig.get('/metrics');
    expect(metrics.body).toContain('pacer_auth_failures_limited_total{surface="api"} 2');
    expect(metrics.body).toContain('pacer_auth_failures_limited_total{surface="dashboard"} 1');
    expect(metrics.body).toContain('pacer_auth_failures_limited_total{surface="sign_in"} 0');
    rig.app.pacerMetrics.webhookBusy = 3;
    rig.app.pacerMetrics.webhookBodyTimeout = 4;
    const again = (await rig.get('/metrics')).body;
    expect(again).toContain('pacer_webhooks_busy_total 3');
    expect(again).toContain('pacer_webhooks_body_timeout_total 4');
  });
});
