import { describe, expect, it } from 'vitest';
import { EMPTY_CONTACT_STATE } from '../src/core/contact-state.js';
import type { OutboxRow, Store } from '../src/ports/store.js';
import { claimedMixedRows, T0 } from './batch-world.js';
import { BACKENDS } from './store-backends.js';

// The set-based forms of the row transitions, status events, deliveries and contact-state saves:
// each row ends exactly as its one-row call would leave it, and a row whose condition fails is left alone.

const OWNER = 'w1';
const row = async (store: Store, id: number): Promise<Partial<OutboxRow> | null> => {
  const r = await store.getOutbox(id);
  return (
    r && {
      status: r.status,
      outcome: r.outcome,
      attempts: r.attempts,
      capAttempts: r.capAttempts,
      leaseOwner: r.leaseOwner,
      wamid: r.wamid,
      lastErrorCode: r.lastErrorCode,
      nextAttemptAt: r.nextAttemptAt,
      updatedAt: r.updatedAt,
    }
  );
};

/** The same moves, one row at a time, on a second store: what the set-based calls must match. */
async function oneByOne(store: Store, ids: number[]): Promise<boolean[]> {
  const [a, b, c, d, e, f] = ids as [number, number, number, number, number, number];
  return [
    await store.recordIntent(a, OWNER, T0 + 1),
    await store.recordIntent(b, OWNER, T0 + 2),
    await store.recordIntent(c, OWNER, T0 + 61_000), // the lease ran out
    await store.recordAccepted(a, OWNER, 'wamid.a', T0 + 3),
    await store.reschedule(b, OWNER, { status: 'queued', until: T0 + 9_000, capAttempt: true, errorCode: 131049 }, T0 + 4),
    await store.reschedule(d, OWNER, { status: 'held', until: null, capAttempt: false, errorCode: null }, T0 + 5),
    await store.complete(e, OWNER, 'skipped', T0 + 6),
    await store.fail(f, OWNER, 131026, T0 + 7),
    await store.recordAccepted(c, OWNER, 'wamid.c', T0 + 8), // never sending: refused
    await store.complete(d, OWNER, 'skipped', T0 + 9), // released already: refused
  ];
}

describe.each(BACKENDS)('set-based writes ($name)', (backend) => {
  it('move rows of several campaigns and numbers as the one-row transitions do, and leave alone those whose lease does not hold', async () => {
    const [batched, single] = [await backend.open(), await backend.open()];
    const [bw, sw] = [await claimedMixedRows(batched, 6, OWNER), await claimedMixedRows(single, 6, OWNER)];
    const ids = bw.rows.map((r) => r.id);
    const [a, b, c, d, e, f] = ids as [number, number, number, number, number, number];
    const moved = {
      intents: await batched.recordIntents(OWNER, [
        { id: a, now: T0 + 1 },
        { id: b, now: T0 + 2 },
        { id: c, now: T0 + 61_000 },
      ]),
      accepted: await batched.recordAcceptedMany(OWNER, [
        { id: a, wamid: 'wamid.a', now: T0 + 3 },
        { id: c, wamid: 'wamid.c', now: T0 + 8 },
      ]),
      rescheduled: await batched.rescheduleMany(OWNER, [
        { id: b, input: { status: 'queued', until: T0 + 9_000, capAttempt: true, errorCode: 131049 }, now: T0 + 4 },
        { id: d, input: { status: 'held', until: null, capAttempt: false, errorCode: null }, now: T0 + 5 },
      ]),
      completed: await batched.completeMany(OWNER, [
        { id: e, outcome: 'skipped', errorCode: null, now: T0 + 6 },
        { id: f, outcome: 'failed', errorCode: 131026, now: T0 + 7 },
        { id: d, outcome: 'skipped', errorCode: null, now: T0 + 9 },
      ]),
    };
    expect({
      intents: moved.intents.sort(),
      accepted: moved.accepted,
      rescheduled: moved.rescheduled.sort(),
      completed: moved.completed.sort(),
    }).toEqual({ intents: [a, b].sort(), accepted: [a], rescheduled: [b, d].sort(), completed: [e, f].sort() });
    expect(
      await oneByOne(
        single,
        sw.rows.map((r) => r.id),
      ),
    ).toEqual([true, true, false, true, true, true, true, true, false, false]);
    for (const [i, id] of ids.entries()) expect(await row(batched, id)).toEqual(await row(single, sw.rows[i]!.id));
  });

  it('move nothing for another owner, and nothing for an empty list', async () => {
    const store = await backend.open();
    const { rows } = await claimedMixedRows(store, 2, OWNER);
    const before = await row(store, rows[0]!.id);
    expect(await store.recordIntents('w2', [{ id: rows[0]!.id, now: T0 + 1 }])).toEqual([]);
    expect(await store.completeMany('w2', [{ id: rows[0]!.id, outcome: 'skipped', errorCode: null, now: T0 + 1 }])).toEqual([]);
    expect(await store.recordIntents(OWNER, [])).toEqual([]);
    expect(await row(store, rows[0]!.id)).toEqual(before);
  });

  it('insert status events in order: a repeat in the list or one stored already is not inserted', async () => {
    const store = await backend.open();
    const ev = (wamid: string, status: 'delivered' | 'read') => ({ wamid, status, at: T0, errorCode: null, inboxId: null, outboxId: null });
    expect(await store.appendMessageEvent(ev('wamid.x', 'read'), T0)).toEqual({ inserted: true });
    expect(
      await store.appendMessageEvents(
        [ev('wamid.a', 'delivered'), ev('wamid.a', 'read'), ev('wamid.a', 'delivered'), ev('wamid.x', 'read')],
        T0,
      ),
    ).toEqual([true, true, false, false]);
    expect(await store.appendMessageEvent(ev('wamid.a', 'read'), T0)).toEqual({ inserted: false });
    expect(await store.appendMessageEvents([], T0)).toEqual([]);
  });

  it('apply statuses by wamid, or by our row when its answer was lost, forward only, as recordDelivery does', async () => {
    const [batched, single] = [await backend.open(), await backend.open()];
    const results: Array<Array<number | null>> = [];
    for (const store of [batched, single]) {
      const { rows } = await claimedMixedRows(store, 4, OWNER);
      const [a, b, c, d] = rows.map((r) => r.id) as [number, number, number, number];
      for (const id of [a, b, c]) await store.recordIntent(id, OWNER, T0);
      await store.recordAccepted(a, OWNER, 'wamid.a', T0);
      await store.recordAccepted(b, OWNER, 'wamid.b', T0);
      await store.recordDelivery({ wamid: 'wamid.b', outboxId: b }, 'read', null, T0); // read already: delivered moves nothing
      const refs = [
        { wamid: 'wamid.a', outboxId: a, status: 'delivered' as const, errorCode: null },
        { wamid: 'wamid.b', outboxId: b, status: 'delivered' as const, errorCode: null },
        { wamid: 'wamid.c', outboxId: c, status: 'failed' as const, errorCode: 131026 }, // c's answer was lost: by id
        { wamid: 'wamid.d', outboxId: d, status: 'read' as const, errorCode: null }, // d never sent: no match
        { wamid: 'wamid.elsewhere', outboxId: null, status: 'read' as const, errorCode: null },
      ];
      const moved =
        store === batched
          ? await store.recordDeliveries(refs, T0 + 5)
          : await Promise.all(refs.map((r) => store.recordDelivery(r, r.status, r.errorCode, T0 + 5)));
      results.push(moved.map((m) => m?.id ?? null));
      results.push(
        (await Promise.all([a, b, c, d].map((id) => row(store, id)))).flatMap((r) => [
          r?.status,
          r?.outcome,
          r?.wamid,
          r?.lastErrorCode,
        ]) as never,
      );
    }
    expect(results[0]?.map((id) => id !== null)).toEqual([true, false, true, false, false]);
    expect(results[0]?.length).toBe(results[2]?.length);
    expect(results[1]).toEqual(results[3]);
  });

  it('apply a sent status only by our row while its answer is missing; an answered row stays as it was', async () => {
    for (const many of [true, false]) {
      const store = await backend.open();
      const { rows } = await claimedMixedRows(store, 3, OWNER);
      const [answered, lost, later] = rows.map((r) => r.id) as [number, number, number];
      for (const id of [answered, lost, later]) await store.recordIntent(id, OWNER, T0);
      await store.recordAccepted(answered, OWNER, 'wamid.answered', T0);
      await store.recordAccepted(later, OWNER, 'wamid.later', T0);
      await store.recordDelivery({ wamid: 'wamid.later', outboxId: later }, 'delivered', null, T0 + 1);
      const before = await Promise.all([answered, later].map((id) => row(store, id)));
      const refs = [
        { wamid: 'wamid.answered', outboxId: answered, status: 'sent' as const, errorCode: null },
        { wamid: 'wamid.lost', outboxId: lost, status: 'sent' as const, errorCode: null },
        { wamid: 'wamid.later', outboxId: later, status: 'sent' as const, errorCode: null }, // delivered already
      ];
      const moved = many
        ? await store.recordDeliveries(refs, T0 + 5)
        : await Promise.all(refs.map((r) => store.recordDelivery(r, r.status, r.errorCode, T0 + 5)));
      expect(moved.map((m) => m?.id ?? null)).toEqual([null, lost, null]);
      expect(await Promise.all([answered, later].map((id) => row(store, id)))).toEqual(before);
      expect(await row(store, lost)).toMatchObject({ status: 'sent', outcome: 'accepted', wamid: 'wamid.lost', updatedAt: T0 + 5 });
    }
  });

  it('refuse two statuses of one message or one row in one call (they must move it in turn)', async () => {
    const store = await backend.open();
    const ref = { wamid: 'wamid.a', outboxId: 1, status: 'delivered' as const, errorCode: null };
    await expect(store.recordDeliveries([ref, { ...ref, status: 'read' }], T0)).rejects.toThrow(/different message and row/);
    await expect(store.recordDeliveries([ref, { ...ref, wamid: 'wamid.b' }], T0)).rejects.toThrow(/different message and row/);
  });

  it('read several contact states at once, and save each only on its expected version', async () => {
    const store = await backend.open();
    const { rows } = await claimedMixedRows(store, 3, OWNER);
    const [x, y, z] = rows.map((r) => r.contactId) as [number, number, number];
    const state = (n: number) => ({ ...EMPTY_CONTACT_STATE, seen: [`e${n}`] });
    await store.saveContactState(x, state(1), 0, T0);
    expect([...(await store.loadContactStates([x, y, z, x])).keys()]).toEqual([x]);
    const landed = await store.saveContactStates(
      [
        { contactId: x, state: state(2), expectedVersion: 1, version: 3 },
        { contactId: y, state: state(3), expectedVersion: 0, version: 2 },
        { contactId: z, state: state(4), expectedVersion: 5, version: 6 }, // not stored at version 5
      ],
      T0 + 1,
    );
    expect([...landed].sort()).toEqual([x, y].sort());
    const after = await store.loadContactStates([x, y, z]);
    expect(after.get(x)).toEqual({ state: state(2), version: 3 });
    expect(after.get(y)).toEqual({ state: state(3), version: 2 });
    expect(after.has(z)).toBe(false);
    // A create on a contact that has a state lands nothing.
    expect(await store.saveContactStates([{ contactId: x, state: state(9), expectedVersion: 0, version: 1 }], T0 + 2)).toEqual(new Set());
    expect(await store.loadContactState(x)).toEqual({ state: state(2), version: 3 });
  });
});
