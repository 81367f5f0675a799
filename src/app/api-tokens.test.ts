import { describe, expect, it } from 'vitest';
import type { ApiToken } from '../ports/store.js';
import { checkApiToken, hashApiToken } from './api-tokens.js';

const ADMIN = 'admin-token-0123456789';
const stored: ApiToken[] = [
  { id: 1, name: 'live', tokenHash: hashApiToken('pacer_live'), createdAt: 0, revokedAt: null, scope: 'write' },
  { id: 3, name: 'viewer', tokenHash: hashApiToken('pacer_viewer'), createdAt: 0, revokedAt: null, scope: 'read' },
  { id: 2, name: 'old', tokenHash: hashApiToken('pacer_old'), createdAt: 0, revokedAt: 5, scope: 'admin' },
];
const store = { findApiToken: (hash: string) => Promise.resolve(stored.find((t) => t.tokenHash === hash) ?? null) };

describe('checkApiToken', () => {
  it('tells missing, malformed, unknown and revoked tokens apart', async () => {
    expect(await checkApiToken(store, undefined, ADMIN)).toEqual({ ok: false, reason: 'missing' });
    expect(await checkApiToken(store, '   ', ADMIN)).toEqual({ ok: false, reason: 'missing' });
    expect(await checkApiToken(store, 'Basic abc', ADMIN)).toEqual({ ok: false, reason: 'malformed' });
    expect(await checkApiToken(store, 'Bearer a b', ADMIN)).toEqual({ ok: false, reason: 'malformed' });
    expect(await checkApiToken(store, 'Bearer pacer_nope', ADMIN)).toEqual({ ok: false, reason: 'unknown' });
    expect(await checkApiToken(store, 'Bearer pacer_old', ADMIN)).toEqual({ ok: false, reason: 'revoked' });
  });

  it('accepts stored tokens with their own scope, and the admin token as admin, with any case of the scheme', async () => {
    expect(await checkApiToken(store, 'Bearer pacer_live', ADMIN)).toEqual({
      ok: true,
      principal: { kind: 'token', id: 1, name: 'live', scope: 'write' },
    });
    expect(await checkApiToken(store, 'Bearer pacer_viewer', ADMIN)).toMatchObject({ ok: true, principal: { scope: 'read' } });
    expect(await checkApiToken(store, `bearer ${ADMIN}`, ADMIN)).toEqual({ ok: true, principal: { kind: 'admin', scope: 'admin' } });
    expect(await checkApiToken(store, `Bearer ${ADMIN.slice(0, -1)}`, ADMIN)).toEqual({ ok: false, reason: 'unknown' });
    expect(await checkApiToken(store, `Bearer ${ADMIN}`, null)).toEqual({ ok: false, reason: 'unknown' });
  });

  it('hashes with SHA-256 in hex', () => {
    expect(hashApiToken('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});
