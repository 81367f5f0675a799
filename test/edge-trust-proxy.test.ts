import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config/config.js';
import { csrfIn, setCookieOf, startEdge, type EdgeRig } from './edge-harness.js';
import { BACKENDS } from './store-backends.js';

/** What an HTTPS proxy in front of Pacer adds to each request it passes on. */
const FORWARDED = { origin: 'https://pacer.example', 'x-forwarded-proto': 'https', 'x-forwarded-host': 'pacer.example' };

async function signIn(rig: EdgeRig, headers: Record<string, string>, from?: string) {
  return rig.form('/login', { token: rig.token, next: '/' }, { headers, ...(from === undefined ? {} : { from }) });
}

describe.each(BACKENDS)('The edge behind a reverse proxy ($name)', (backend) => {
  it('with PACER_TRUST_PROXY, takes the forwarded origin for the origin check and sets a Secure cookie', async () => {
    const rig = await startEdge(backend, loadConfig({ PACER_TRUST_PROXY: 'loopback' }).edge);
    const login = await signIn(rig, FORWARDED);
    expect(login.statusCode).toBe(303);
    expect(setCookieOf(login)).toMatch(/^pacer_session=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Strict; Max-Age=43200; Secure$/);
    const cookie = setCookieOf(login)?.split(';')[0] ?? '';

    // A form on a page: the action passes the origin check through the proxy too.
    const page = await rig.get('/', { headers: { cookie, 'x-forwarded-proto': 'https', 'x-forwarded-host': 'pacer.example' } });
    const find = await rig.form('/contacts/find', { _csrf: csrfIn(page.body), q: '+447911123456' }, { headers: { ...FORWARDED, cookie } });
    expect(find.statusCode).toBe(404); // past the origin and CSRF checks: there is no such contact
    expect(find.body).toContain('No contact matches');

    // Another site's page, through the same proxy, is still refused.
    const crossSite = await rig.form(
      '/contacts/find',
      { _csrf: csrfIn(page.body), q: 'x' },
      { headers: { ...FORWARDED, origin: 'https://evil.example', cookie } },
    );
    expect(crossSite.statusCode).toBe(403);
  });

  it('trusts only the configured proxies: forwarded headers from any other peer are ignored', async () => {
    const rig = await startEdge(backend, loadConfig({ PACER_TRUST_PROXY: '10.0.0.0/8, 192.168.1.7' }).edge);
    expect((await signIn(rig, FORWARDED, '10.20.30.40')).statusCode).toBe(303);
    expect(setCookieOf(await signIn(rig, FORWARDED, '192.168.1.7'))).toContain('; Secure');
    const direct = await signIn(rig, FORWARDED, '203.0.113.9');
    expect(direct.statusCode).toBe(403);
    expect(direct.body).toContain('the form was not sent from this server');
  });

  it('with a hop count, believes that many hops nearest the server', async () => {
    const rig = await startEdge(backend, loadConfig({ PACER_TRUST_PROXY: '1' }).edge);
    const login = await signIn(rig, FORWARDED, '172.18.0.2');
    expect(login.statusCode).toBe(303);
    expect(setCookieOf(login)).toContain('; Secure');
  });

  it('off by default: forwarded headers are ignored, so the proxied origin fails and no cookie is Secure', async () => {
    const rig = await startEdge(backend);
    const login = await signIn(rig, FORWARDED);
    expect(login.statusCode).toBe(403);
    // The direct origin works as before, over plain HTTP, without Secure.
    const direct = await signIn(rig, { origin: 'http://localhost:80' });
    expect(direct.statusCode).toBe(303);
    expect(setCookieOf(direct)).not.toContain('Secure');
  });

  it('off by default: a spoofed X-Forwarded-For does not get a fresh allowance of sign-in tries', async () => {
    const rig = await startEdge(backend);
    for (let i = 0; i < 10; i++) {
      const guess = await rig.form('/login', { token: `pacer_guess-${i}` }, { headers: { 'x-forwarded-for': `198.51.100.${i}` } });
      expect(guess.statusCode).toBe(401);
    }
    const spoofed = await rig.form('/login', { token: rig.token }, { headers: { 'x-forwarded-for': '198.51.100.200' } });
    expect(spoofed.statusCode).toBe(429);
    expect(spoofed.headers['retry-after']).toBe('6');
  });

  it('on: each client behind the proxy has its own tries, keyed by the forwarded address', async () => {
    const rig = await startEdge(backend, { trustProxy: ['127.0.0.1'] });
    for (let i = 0; i < 10; i++)
      expect((await rig.form('/login', { token: `pacer_guess-${i}` }, { headers: { 'x-forwarded-for': '198.51.100.7' } })).statusCode).toBe(
        401,
      );
    expect((await rig.form('/login', { token: rig.token }, { headers: { 'x-forwarded-for': '198.51.100.7' } })).statusCode).toBe(429);
    expect((await rig.form('/login', { token: rig.token }, { headers: { 'x-forwarded-for': '198.51.100.8' } })).statusCode).toBe(303);
  });
});

describe.each(BACKENDS)('A malformed session cookie ($name)', (backend) => {
  it('reads as no session: pages redirect to /login, /login shows the form, signing in works', async () => {
    const rig = await startEdge(backend);
    const cookie = 'pacer_session=%E0%A4%A';
    const login = await rig.get('/login', { headers: { cookie } });
    expect(login.statusCode).toBe(200);
    expect(login.body).toContain('name="token"');
    for (const path of ['/', '/templates', '/campaigns/1', '/errors/131049']) {
      const page = await rig.get(path, { headers: { cookie } });
      expect(page.statusCode, path).toBe(303);
      expect(page.headers['location']).toBe(`/login?next=${encodeURIComponent(path)}`);
    }
    const signIn = await rig.form('/login', { token: rig.token, next: '/' }, { headers: { cookie } });
    expect(signIn.statusCode).toBe(303);
    const fresh = setCookieOf(signIn)?.split(';')[0] ?? '';
    expect((await rig.get('/', { headers: { cookie: `${cookie}; other=1` } })).statusCode).toBe(303);
    expect((await rig.get('/', { headers: { cookie: fresh } })).statusCode).toBe(200);
  });
});
