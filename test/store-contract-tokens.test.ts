import { describe, expect, it } from 'vitest';
import { HOUR } from '../src/core/time.js';
import { StoreError } from '../src/ports/store.js';
import { BACKENDS } from './store-backends.js';
import { seedCampaign } from './store-seed.js';

const T0 = Date.UTC(2026, 0, 5, 9, 0, 0);
const HASH_A = 'a'.repeat(64);
const HASH_B = 'b'.repeat(64);

describe.each(BACKENDS)('Store contract: API tokens and outbox totals ($name)', (backend) => {
  it('creates tokens, finds them by hash, lists them in creation order', async () => {
    const store = await backend.open();
    const a = await store.createApiToken({ name: 'ci', tokenHash: HASH_A, scope: 'write' }, T0);
    const b = await store.createApiToken({ name: 'dashboard', tokenHash: HASH_B, scope: 'read' }, T0 + 1);
    expect(a).toEqual({ id: a.id, name: 'ci', tokenHash: HASH_A, scope: 'write', createdAt: T0, revokedAt: null });
    expect(b.id).toBeGreaterThan(a.id);
    expect(await store.findApiToken(HASH_B)).toEqual(b);
    expect(await store.findApiToken('c'.repeat(64))).toBeNull();
    expect((await store.listApiTokens()).map((t) => t.name)).toEqual(['ci', 'dashboard']);
  });

  it('refuses a second token with the same hash', async () => {
    const store = await backend.open();
    await store.createApiToken({ name: 'one', tokenHash: HASH_A, scope: 'read' }, T0);
    const second = store.createApiToken({ name: 'two', tokenHash: HASH_A, scope: 'read' }, T0);
    await expect(second).rejects.toBeInstanceOf(StoreError);
    await expect(second).rejects.toMatchObject({ code: 'constraint', operation: 'createApiToken' });
  });

  it('revokes once: the first revocation time stays, unknown ids answer false', async () => {
    const store = await backend.open();
    const token = await store.createApiToken({ name: 'ci', tokenHash: HASH_A, scope: 'admin' }, T0);
    expect(await store.revokeApiToken(token.id, T0 + HOUR)).toBe(true);
    expect(await store.revokeApiToken(token.id, T0 + 2 * HOUR)).toBe(false);
    expect(await store.revokeApiToken(token.id + 100, T0)).toBe(false);
    expect(await store.findApiToken(HASH_A)).toMatchObject({ id: token.id, revokedAt: T0 + HOUR });
  });

  it('counts outbox rows by status and by outcome', async () => {
    const store = await backend.open();
    const empty = await store.outboxTotals();
    expect(Object.values(empty.byStatus).every((n) => n === 0)).toBe(true);
    expect(Object.keys(empty.byOutcome).sort()).toEqual([
      'accepted',
      'cancelled',
      'capped_exhausted',
      'delivered',
      'failed',
      'read',
      'skipped',
    ]);
    const seed = await seedCampaign(store, T0, 4);
    await store.insertOutbox(
      seed.rows(() => T0),
      T0,
    );
    const [first, second] = await store.claimDue({ owner: 'w', now: T0, leaseMs: HOUR, limit: 2 });
    await store.complete(first?.id ?? -1, 'w', 'skipped', T0);
    await store.recordIntent(second?.id ?? -1, 'w', T0);
    await store.recordAccepted(second?.id ?? -1, 'w', 'wamid.x', T0);
    const totals = await store.outboxTotals();
    expect(totals.byStatus).toMatchObject({ queued: 2, done: 1, sent: 1, leased: 0 });
    expect(totals.byOutcome).toMatchObject({ skipped: 1, accepted: 1, failed: 0 });
  });
});
