import { describe, expect, it } from 'vitest';
import { safeNext } from './login-page.js';
import { readCookie, sameCsrf, SessionStore } from './sessions.js';

describe('dashboard sessions', () => {
  it('finds a session until it expires, and forgets it on delete', () => {
    const sessions = new SessionStore();
    const { id, session } = sessions.create({ kind: 'admin', scope: 'admin' }, 1_000);
    expect(id).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(sessions.get(id, 2_000)).toBe(session);
    expect(sessions.get('other', 2_000)).toBeNull();
    expect(sessions.get(undefined, 2_000)).toBeNull();
    expect(sessions.get(id, session.expiresAt)).toBeNull();
    const again = sessions.create({ kind: 'admin', scope: 'admin' }, 1_000);
    sessions.delete(again.id);
    expect(sessions.get(again.id, 1_000)).toBeNull();
  });

  it('compares CSRF tokens exactly', () => {
    expect(sameCsrf('abc', 'abc')).toBe(true);
    expect(sameCsrf('abd', 'abc')).toBe(false);
    expect(sameCsrf('ab', 'abc')).toBe(false);
    expect(sameCsrf(undefined, 'abc')).toBe(false);
  });

  it('reads one cookie among several', () => {
    expect(readCookie('a=1; pacer_session=xyz; b=2', 'pacer_session')).toBe('xyz');
    expect(readCookie('pacer_sessionx=1', 'pacer_session')).toBeUndefined();
    expect(readCookie(undefined, 'pacer_session')).toBeUndefined();
  });

  it('reads a cookie that is not valid percent-encoding as no cookie', () => {
    expect(readCookie('pacer_session=%E0%A4%A', 'pacer_session')).toBeUndefined();
    expect(readCookie('pacer_session=%E0%A4%A; pacer_session=xyz', 'pacer_session')).toBeUndefined();
    expect(readCookie('other=%E0%A4%A; pacer_session=xyz', 'pacer_session')).toBe('xyz');
  });

  it('redirects after sign-in only to a path on this server', () => {
    expect(safeNext('/campaigns/3?heldAfter=10')).toBe('/campaigns/3?heldAfter=10');
    for (const bad of ['//evil.example', 'https://evil.example/', '/\\evil.example', 'campaigns', undefined, 3])
      expect(safeNext(bad)).toBe('/');
  });
});
