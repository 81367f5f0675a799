import { describe, expect, it } from 'vitest';
import { ClaimedRowWrites } from '../src/app/claimed-row-writes.js';
import type { Store } from '../src/ports/store.js';
import { claimedMixedRows, T0 } from './batch-world.js';
import { BACKENDS } from './store-backends.js';

// The dispatcher's claim transaction gathers its rows' transitions and sends them set-based: every
// call answers as its own statement would have, and the rows end as the one-row calls leave them.

const OWNER = 'w1';
const LEASE_END = T0 + 60_000;

const status = async (store: Store, ids: number[]) =>
  Promise.all(
    ids.map(async (id) => {
      const r = await store.getOutbox(id);
      return (
        r && {
          status: r.status,
          outcome: r.outcome,
          attempts: r.attempts,
          owner: r.leaseOwner,
          next: r.nextAttemptAt,
          error: r.lastErrorCode,
        }
      );
    }),
  );

describe.each(BACKENDS)('claimed row writes ($name)', (backend) => {
  it('answer each transition from the claimed row, then move the rows of several campaigns and numbers in one flush', async () => {
    const store = await backend.open();
    const { rows } = await claimedMixedRows(store, 5, OWNER);
    const [a, b, c, d, e] = rows.map((r) => r.id) as [number, number, number, number, number];
    const claimed = await Promise.all(rows.map(async (r) => (await store.getOutbox(r.id))!));
    const answers = await store.transaction(async (tx) => {
      const writes = new ClaimedRowWrites(tx, OWNER, claimed);
      const s = writes.over(tx);
      const out = [
        await s.recordIntent(a, OWNER, T0 + 1),
        await s.recordIntent(a, OWNER, T0 + 2), // sending already
        await s.recordIntent(b, OWNER, LEASE_END), // the lease ran out
        await s.recordIntent(c, 'w2', T0 + 1), // not its owner
        await s.reschedule(c, OWNER, { status: 'queued', until: T0 + 5_000, capAttempt: false, errorCode: null }, T0 + 3),
        await s.complete(c, OWNER, 'skipped', T0 + 4), // released already
        await s.reschedule(d, OWNER, { status: 'held', until: null, capAttempt: false, errorCode: null }, T0 + 5),
        await s.fail(e, OWNER, 131026, T0 + 6),
        await s.recordIntent(999_999, OWNER, T0 + 1), // not claimed here: asked of the store
      ];
      // Nothing written yet: the rows are as claimed until the flush.
      expect((await tx.getOutbox(a))?.status).toBe('leased');
      await writes.flush();
      return out;
    });
    expect(answers).toEqual([true, false, false, false, true, false, true, true, false]);
    expect(await status(store, [a, b, c, d, e])).toEqual([
      { status: 'sending', outcome: null, attempts: 1, owner: OWNER, next: T0 - 1, error: null },
      { status: 'leased', outcome: null, attempts: 0, owner: OWNER, next: T0 - 1, error: null },
      { status: 'queued', outcome: null, attempts: 0, owner: null, next: T0 + 5_000, error: null },
      { status: 'held', outcome: null, attempts: 0, owner: null, next: 0, error: null }, // no wake-up time (reads back as 0)
      { status: 'done', outcome: 'failed', attempts: 0, owner: null, next: T0 - 1, error: 131026 },
    ]);
  });

  it('fail the flush, undoing the transaction, when a gathered transition did not hold', async () => {
    const store = await backend.open();
    const { rows } = await claimedMixedRows(store, 2, OWNER);
    const claimed = await Promise.all(rows.map(async (r) => (await store.getOutbox(r.id))!));
    await expect(
      store.transaction(async (tx) => {
        // A store that moves nothing: as if another writer had taken the rows (which their lock prevents).
        const writes = new ClaimedRowWrites({ ...tx, recordIntents: async () => [] }, OWNER, claimed);
        const s = writes.over(tx);
        expect(await s.recordIntent(rows[0]!.id, OWNER, T0 + 1)).toBe(true);
        expect(await s.complete(rows[1]!.id, OWNER, 'skipped', T0 + 1)).toBe(true);
        await writes.flush();
      }),
    ).rejects.toThrow(/1 of 2 gathered transitions held/);
    expect(
      (
        await status(
          store,
          rows.map((r) => r.id),
        )
      ).map((r) => r?.status),
    ).toEqual(['leased', 'leased']);
  });
});
