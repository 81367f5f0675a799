import { describe, expect, it } from 'vitest';
import { migrate } from '../src/adapters/storage/migrate.js';
import { MIGRATIONS } from '../src/adapters/storage/migrations.js';
import { HOUR, MINUTE } from '../src/core/time.js';
import type { IdempotencyClaim } from '../src/ports/store.js';
import { BACKENDS, executorAt } from './store-backends.js';

const T0 = Date.UTC(2026, 0, 5, 9, 0, 0);
const TIMES = { keepMs: 24 * HOUR, staleAfterMs: 5 * MINUTE };
const CLAIM: IdempotencyClaim = { principal: 'token:1', key: 'order-1', fingerprint: 'f'.repeat(64) };
const ANSWER = { status: 202, headers: { 'content-type': 'application/json; charset=utf-8' }, body: '{"queued":true}' };

describe.each(BACKENDS)('Store contract: token scopes and idempotency keys ($name)', (backend) => {
  it('migration 20 makes every token made before scopes an admin token, and new tokens need a scope', async () => {
    const place = backend.place();
    const before = executorAt(place);
    try {
      await migrate(before, MIGRATIONS.slice(0, 19), T0);
      await before.execute("INSERT INTO api_tokens (name, token_hash, created_at, revoked_at) VALUES ('old', $1, $2, NULL)", [
        'a'.repeat(64),
        T0,
      ]);
    } finally {
      await before.close();
    }
    const store = place.open();
    // 20 and whatever came after it.
    expect((await store.migrate()).applied).toEqual(MIGRATIONS.slice(19).map((m) => m.version));
    expect(await store.findApiToken('a'.repeat(64))).toMatchObject({ name: 'old', scope: 'admin', createdAt: T0, revokedAt: null });
    // No default remains: a row without a scope is refused, and so is a scope that is not one.
    const raw = (sql: string) => Promise.resolve().then(() => place.raw(sql)); // SQLite's raw throws at once
    await expect(raw(`INSERT INTO api_tokens (name, token_hash, created_at) VALUES ('x', '${'b'.repeat(64)}', 0)`)).rejects.toThrow(
      /null/i,
    );
    await expect(
      raw(`INSERT INTO api_tokens (name, token_hash, created_at, scope) VALUES ('x', '${'c'.repeat(64)}', 0, 'root')`),
    ).rejects.toThrow(/check/i);
    const created = await store.createApiToken({ name: 'new', tokenHash: 'd'.repeat(64), scope: 'read' }, T0 + 1);
    expect(created.id).toBeGreaterThan(1);
    expect((await store.listApiTokens()).map((t) => `${t.name}:${t.scope}`)).toEqual(['old:admin', 'new:read']);
  });

  it('claims a key once: a retry sees it running, then gets the recorded answer', async () => {
    const store = await backend.open();
    expect(await store.claimIdempotencyKey(CLAIM, T0, TIMES)).toEqual({ kind: 'claimed', claimedAt: T0 });
    expect(await store.claimIdempotencyKey(CLAIM, T0 + 1, TIMES)).toEqual({ kind: 'in_progress' });
    expect(await store.claimIdempotencyKey({ ...CLAIM, fingerprint: 'e'.repeat(64) }, T0 + 1, TIMES)).toEqual({ kind: 'in_progress' });
    expect(await store.completeIdempotencyKey(CLAIM, T0, ANSWER)).toBe(true);
    expect(await store.completeIdempotencyKey(CLAIM, T0, { ...ANSWER, status: 500 })).toBe(false);
    expect(await store.claimIdempotencyKey(CLAIM, T0 + 2, TIMES)).toEqual({ kind: 'done', response: ANSWER });
    expect(await store.claimIdempotencyKey({ ...CLAIM, fingerprint: 'e'.repeat(64) }, T0 + 2, TIMES)).toEqual({ kind: 'mismatch' });
  });

  it('keeps keys apart per principal', async () => {
    const store = await backend.open();
    expect((await store.claimIdempotencyKey(CLAIM, T0, TIMES)).kind).toBe('claimed');
    expect((await store.claimIdempotencyKey({ ...CLAIM, principal: 'token:2' }, T0, TIMES)).kind).toBe('claimed');
    expect((await store.claimIdempotencyKey({ ...CLAIM, principal: 'admin' }, T0, TIMES)).kind).toBe('claimed');
  });

  it('lets a released key run again, and a released claim cannot record an answer', async () => {
    const store = await backend.open();
    await store.claimIdempotencyKey(CLAIM, T0, TIMES);
    await store.releaseIdempotencyKey(CLAIM, T0);
    expect(await store.completeIdempotencyKey(CLAIM, T0, ANSWER)).toBe(false);
    expect(await store.claimIdempotencyKey(CLAIM, T0 + 1, TIMES)).toEqual({ kind: 'claimed', claimedAt: T0 + 1 });
  });

  it('hands a stale claim to the next request; the abandoned one can no longer record its answer', async () => {
    const store = await backend.open();
    await store.claimIdempotencyKey(CLAIM, T0, TIMES);
    expect(await store.claimIdempotencyKey(CLAIM, T0 + TIMES.staleAfterMs - 1, TIMES)).toEqual({ kind: 'in_progress' });
    const later = T0 + TIMES.staleAfterMs;
    expect(await store.claimIdempotencyKey(CLAIM, later, TIMES)).toEqual({ kind: 'claimed', claimedAt: later });
    expect(await store.completeIdempotencyKey(CLAIM, T0, ANSWER)).toBe(false);
    expect(await store.completeIdempotencyKey(CLAIM, later, ANSWER)).toBe(true);
    // An answered key never goes stale: it is kept until it expires.
    expect((await store.claimIdempotencyKey(CLAIM, later + 2 * TIMES.staleAfterMs, TIMES)).kind).toBe('done');
  });

  it('expires keys after their time: then the key is new again, and the sweep deletes them', async () => {
    const store = await backend.open();
    await store.claimIdempotencyKey(CLAIM, T0, TIMES);
    await store.completeIdempotencyKey(CLAIM, T0, ANSWER);
    await store.claimIdempotencyKey({ ...CLAIM, key: 'order-2' }, T0 + HOUR, TIMES);
    const expiry = T0 + TIMES.keepMs;
    expect((await store.claimIdempotencyKey(CLAIM, expiry - 1, TIMES)).kind).toBe('done');
    expect(await store.claimIdempotencyKey({ ...CLAIM, fingerprint: 'e'.repeat(64) }, expiry, TIMES)).toEqual({
      kind: 'claimed',
      claimedAt: expiry,
    });
    expect(await store.sweepIdempotencyKeys(expiry + HOUR)).toBe(1); // order-2, kept from T0 + 1 h
    expect(await store.sweepIdempotencyKeys(expiry + HOUR)).toBe(0);
    expect((await store.claimIdempotencyKey({ ...CLAIM, fingerprint: 'e'.repeat(64) }, expiry + MINUTE, TIMES)).kind).toBe('in_progress');
  });

  it('gives a key to exactly one of many claims at once, across connections', async () => {
    const place = backend.place();
    const first = place.open();
    await first.migrate();
    const others = [first, place.open(), place.open(), place.open()];
    const outcomes = await Promise.all(others.flatMap((s) => [s, s]).map((s) => s.claimIdempotencyKey(CLAIM, T0, TIMES)));
    expect(outcomes.filter((o) => o.kind === 'claimed')).toHaveLength(1);
    expect(outcomes.filter((o) => o.kind === 'in_progress')).toHaveLength(outcomes.length - 1);
  });

  it('stores an answer whose body holds any text, and headers as given', async () => {
    const store = await backend.open();
    await store.claimIdempotencyKey(CLAIM, T0, TIMES);
    const odd = { status: 400, headers: { 'content-type': 'application/json', location: '/x?a=1' }, body: '{"m":"é \\u0000 ✓"}' };
    await store.completeIdempotencyKey(CLAIM, T0, odd);
    expect(await store.claimIdempotencyKey(CLAIM, T0 + 1, TIMES)).toEqual({ kind: 'done', response: odd });
  });
});
