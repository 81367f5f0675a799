import pg from 'pg';
import { describe, expect, it, onTestFinished } from 'vitest';
import { EMPTY_CONTACT_STATE } from '../src/core/contact-state.js';
import { HOUR, MINUTE } from '../src/core/time.js';
import type { JsonObject, Store, TxStore } from '../src/ports/store.js';
import { eventually } from './await-state.js';
import { BACKENDS, PG_URL } from './store-backends.js';
import { seedCampaign } from './store-seed.js';

const T0 = Date.UTC(2026, 0, 5, 9, 0, 0);
const LEASE = 5 * MINUTE;

describe.each(BACKENDS)('Store contract: outbox ($name)', (backend) => {
  it('inserts outbox rows idempotently per (campaign, contact) and per one-off key', async () => {
    const store = await backend.open();
    const seed = await seedCampaign(store, T0, 3);
    expect(
      await store.insertOutbox(
        seed.rows(() => T0),
        T0,
      ),
    ).toEqual({ inserted: 3 });
    expect(
      await store.insertOutbox(
        seed.rows(() => T0 + HOUR),
        T0 + 1,
      ),
    ).toEqual({ inserted: 0 });

    const contactId = seed.contactIds[0] ?? -1;
    const oneOff = {
      campaignId: null,
      contactId,
      senderId: seed.senderId,
      category: 'utility',
      intent: { text: 'hi' },
      idempotencyKey: 'req-1',
      nextAttemptAt: T0,
    } as const;
    expect(await store.insertOutbox([oneOff, oneOff], T0)).toEqual({ inserted: 1 });
    expect(
      await store.insertOutbox(
        [
          { ...oneOff, idempotencyKey: null },
          { ...oneOff, idempotencyKey: null },
        ],
        T0,
      ),
    ).toEqual({ inserted: 2 });
    expect((await store.campaignCounters(seed.campaignId)).total).toBe(3);
  });

  it('plans a segment page by page into the rows insertOutbox writes, never twice', async () => {
    const store = await backend.open();
    const seed = await seedCampaign(store, T0, 0);
    const { ids } = await store.upsertContacts(
      ['vip', 'vip', 'other', 'vip'].map((tag, i) => ({ waId: `4470000000${i}`, tags: [tag] })),
      T0,
    );
    const plan = {
      campaignId: seed.campaignId,
      senderId: seed.senderId,
      category: 'marketing',
      intent: { phoneNumberId: 'pn-1', template: { name: 'promo', language: 'en' } },
      nextAttemptAt: T0 + HOUR,
      segment: { tagsAll: ['vip'] },
    } as const;
    const [a = -1, b = -1, c = -1, d = -1] = ids;
    expect(await store.insertSegmentOutbox(plan, 0, 2, T0)).toEqual({ lastContactId: b, scanned: 2, matched: 2, inserted: 2 });
    expect(await store.insertSegmentOutbox(plan, b, 2, T0)).toEqual({ lastContactId: d, scanned: 2, matched: 1, inserted: 1 });
    expect(await store.insertSegmentOutbox(plan, d, 2, T0)).toEqual({ lastContactId: null, scanned: 0, matched: 0, inserted: 0 });
    // Again over everything: the same matches, nothing new.
    expect(await store.insertSegmentOutbox(plan, 0, 10, T0 + 1)).toEqual({ lastContactId: d, scanned: 4, matched: 3, inserted: 0 });

    await store.setCampaignStatus(seed.campaignId, 'running', null, T0);
    const rows = await store.claimDue({ owner: 'w', now: T0 + HOUR, leaseMs: LEASE, limit: 10 });
    expect(rows.map((r) => r.contactId).sort((x, y) => x - y)).toEqual([a, b, d]);
    expect(rows.map((r) => r.contactId)).not.toContain(c);
    for (const row of rows) {
      expect(row).toMatchObject({
        campaignId: seed.campaignId,
        senderId: seed.senderId,
        category: 'marketing',
        intent: plan.intent,
        idempotencyKey: null,
        nextAttemptAt: T0 + HOUR,
        attempts: 0,
        capAttempts: 0,
        createdAt: T0,
      });
    }
  });

  it('counts a segment page by page, with the states of its matches now', async () => {
    const store = await backend.open();
    const { ids } = await store.upsertContacts(
      [{ waId: '447000000001', tags: ['vip'] }, { waId: '447000000002', tags: ['vip'] }, { waId: '447000000003' }],
      T0,
    );
    const [first = -1, second = -1, third = -1] = ids;
    const held = {
      ...EMPTY_CONTACT_STATE,
      marketing: {
        ...EMPTY_CONTACT_STATE.marketing,
        experiment: { eventId: 'e1', type: 'status' as const, at: T0, detail: '130472' },
        coolOffUntil: T0 + HOUR,
      },
    };
    await store.saveContactState(second, held, 0, T0);
    await store.saveContactState(third, held, 0, T0);
    const none = { cooling_off: 0, held: 0, stopped: 0, unreachable: 0 };
    expect(await store.countSegment({ tagsAny: ['vip'] }, T0, 0, 1)).toEqual({
      lastContactId: first,
      scanned: 1,
      matched: 1,
      matchedNow: none,
    });
    expect(await store.countSegment({ tagsAny: ['vip'] }, T0, first, 5)).toEqual({
      lastContactId: third,
      scanned: 2,
      matched: 1,
      matchedNow: { ...none, cooling_off: 1, held: 1 },
    });
    expect(await store.countSegment({ tagsAny: ['vip'] }, T0 + HOUR, first, 5)).toMatchObject({ matchedNow: { ...none, held: 1 } });
    expect(await store.countSegment({ tagsAny: ['vip'] }, T0, third, 5)).toEqual({
      lastContactId: null,
      scanned: 0,
      matched: 0,
      matchedNow: none,
    });
  });

  it('claims due rows of running campaigns in due order, leased to one owner', async () => {
    const store = await backend.open();
    const seed = await seedCampaign(store, T0, 4);
    await store.insertOutbox(
      seed.rows((i) => T0 + (3 - i) * MINUTE),
      T0,
    ); // contact 3 is due first
    const paused = await seedCampaign(store, T0, 0, 'paused');
    await store.insertOutbox(
      seed.rows(() => T0).map((r) => ({ ...r, campaignId: paused.campaignId })),
      T0,
    );

    expect(await store.claimDue({ owner: 'w1', now: T0 - 1, leaseMs: LEASE, limit: 10 })).toEqual([]);
    const claimed = await store.claimDue({ owner: 'w1', now: T0 + 2 * MINUTE, leaseMs: LEASE, limit: 2 });
    expect(claimed.map((r) => r.contactId)).toEqual([seed.contactIds[3], seed.contactIds[2]]);
    for (const row of claimed) {
      expect(row).toMatchObject({
        status: 'leased',
        leaseOwner: 'w1',
        leaseExpiresAt: T0 + 2 * MINUTE + LEASE,
        campaignId: seed.campaignId,
      });
    }
    const rest = await store.claimDue({ owner: 'w2', now: T0 + 2 * MINUTE, leaseMs: LEASE, limit: 10 });
    expect(rest.map((r) => r.contactId)).toEqual([seed.contactIds[1]]);
    // Once its campaign runs, the paused campaign's rows become claimable too.
    await store.setCampaignStatus(paused.campaignId, 'running', null, T0);
    expect(await store.claimDue({ owner: 'w2', now: T0 + 2 * MINUTE, leaseMs: LEASE, limit: 10 })).toHaveLength(4);
  });

  it("claims only the rows of the worker's own number, and finds only its own next work", async () => {
    const store = await backend.open();
    const seed = await seedCampaign(store, T0, 4);
    // Contacts 0 and 2 go from pn-1, 1 and 3 from pn-2; pn-2's rows are due first.
    await store.insertOutbox(
      seed
        .rows((i) => T0 + (i % 2 === 0 ? 2 : 1) * MINUTE)
        .map((r, i) => ({ ...r, intent: { ...r.intent, phoneNumberId: `pn-${1 + (i % 2)}` } })),
      T0,
    );
    expect(await store.nextWorkAt({ phoneNumberId: 'pn-1' })).toBe(T0 + 2 * MINUTE);
    expect(await store.nextWorkAt({ phoneNumberId: 'pn-2' })).toBe(T0 + MINUTE);
    expect(await store.nextWorkAt({ phoneNumberId: 'pn-3' })).toBeNull();
    expect(await store.nextWorkAt()).toBe(T0 + MINUTE);

    const at = T0 + 3 * MINUTE;
    const mine = await store.claimDue({ owner: 'w1', now: at, leaseMs: LEASE, limit: 10, phoneNumberId: 'pn-1' });
    expect(mine.map((r) => r.contactId)).toEqual([seed.contactIds[0], seed.contactIds[2]]);
    expect(await store.claimDue({ owner: 'w3', now: at, leaseMs: LEASE, limit: 10, phoneNumberId: 'pn-3' })).toEqual([]);
    const theirs = await store.claimDue({ owner: 'w2', now: at, leaseMs: LEASE, limit: 10, phoneNumberId: 'pn-2' });
    expect(theirs.map((r) => r.contactId)).toEqual([seed.contactIds[1], seed.contactIds[3]]);
  });

  it('never hands the same row to two workers claiming at once', async () => {
    const place = backend.place();
    const first = place.open();
    await first.migrate();
    const seed = await seedCampaign(first, T0, 40);
    await first.insertOutbox(
      seed.rows(() => T0),
      T0,
    );
    const workers = [first, place.open(), place.open()];
    const claimed: number[] = [];
    for (let round = 0; round < 5; round += 1) {
      const batches = await Promise.all(workers.map((w, i) => w.claimDue({ owner: `w${i}`, now: T0, leaseMs: LEASE, limit: 3 })));
      claimed.push(...batches.flat().map((r) => r.id));
    }
    expect(claimed).toHaveLength(40);
    expect(new Set(claimed).size).toBe(40);
  });

  it('records intent before the send and the result after, then moves outcomes only forward', async () => {
    const store = await backend.open();
    const seed = await seedCampaign(store, T0, 1);
    await store.insertOutbox(
      seed.rows(() => T0),
      T0,
    );
    const [row] = await store.claimDue({ owner: 'w1', now: T0, leaseMs: LEASE, limit: 1 });
    const id = row?.id ?? -1;
    expect(await store.recordIntent(id, 'w2', T0 + 1)).toBe(false);
    expect(await store.recordIntent(id, 'w1', T0 + 1)).toBe(true);
    expect(await store.recordAccepted(id, 'w1', 'wamid.A', T0 + 2)).toBe(true);
    expect(await store.getOutbox(id)).toMatchObject({
      status: 'sent',
      outcome: 'accepted',
      wamid: 'wamid.A',
      attempts: 1,
      leaseOwner: null,
    });

    const read = await store.recordDelivery({ wamid: 'wamid.A', outboxId: null }, 'read', null, T0 + 4);
    expect([read?.id, read?.outcome, read?.status]).toEqual([id, 'read', 'sent']); // the row as updated
    // A late 'delivered' must not move 'read' back.
    expect((await store.recordDelivery({ wamid: 'wamid.A', outboxId: null }, 'delivered', null, T0 + 5))?.id ?? null).toBeNull();
    expect((await store.recordDelivery({ wamid: 'wamid.unknown', outboxId: null }, 'read', null, T0 + 5))?.id ?? null).toBeNull();
    expect(await store.getOutbox(id)).toMatchObject({ status: 'sent', outcome: 'read' });
    expect(await store.campaignCounters(seed.campaignId)).toMatchObject({ total: 1, sent: 1, read: 1, delivered: 0 });
  });

  it('a status reads back the row as updated, all but its intent, and what it was sent as: number and template, or no template for text', async () => {
    const store = await backend.open();
    const seed = await seedCampaign(store, T0, 4);
    const [a, b, c, d] = seed.contactIds;
    const row = (contactId: number | undefined, key: string, intent: JsonObject) =>
      ({
        campaignId: null,
        contactId: contactId ?? -1,
        senderId: seed.senderId,
        category: 'utility',
        intent,
        idempotencyKey: key,
        nextAttemptAt: T0,
      }) as const;
    await store.insertOutbox(
      [
        row(a, 'tpl', { phoneNumberId: 'pn-7', template: { name: 'order_update', language: 'pt_BR', values: { '1': 'Ana' } } }),
        row(b, 'txt', { phoneNumberId: 'pn-8', text: 'hello' }),
        row(c, 'many', { phoneNumberId: 'pn-9', template: { name: 'receipt', language: 'en' } }),
        row(d, 'lost', { phoneNumberId: 'pn-10', template: { name: 'receipt', language: 'es' } }),
      ],
      T0,
    );
    const ids = new Map<string, number>();
    for (const claimed of await store.claimDue({ owner: 'w1', now: T0, leaseMs: LEASE, limit: 4 })) {
      ids.set(claimed.idempotencyKey ?? '', claimed.id);
      expect(await store.recordIntent(claimed.id, 'w1', T0 + 1)).toBe(true);
      // The last one's answer is lost: only our callback data finds it.
      if (claimed.idempotencyKey !== 'lost')
        expect(await store.recordAccepted(claimed.id, 'w1', `wamid.${claimed.idempotencyKey}`, T0 + 2)).toBe(true);
    }
    /** The row as getOutbox reads it after the status, without its intent, and what it was sent as. */
    const expected = async (key: string, sentAs: unknown) => {
      const { intent: _intent, ...rest } = (await store.getOutbox(ids.get(key) ?? -1)) ?? { intent: null };
      return { ...rest, sentAs };
    };
    const tpl = await store.recordDelivery({ wamid: 'wamid.tpl', outboxId: null }, 'delivered', null, T0 + 3);
    expect(tpl).toMatchObject({ id: ids.get('tpl'), outcome: 'delivered' });
    expect(tpl).toEqual(await expected('tpl', { phoneNumberId: 'pn-7', template: { name: 'order_update', language: 'pt_BR' } }));
    const txt = await store.recordDelivery({ wamid: 'wamid.txt', outboxId: ids.get('txt') ?? -1 }, 'failed', 131047, T0 + 3);
    expect(txt).toMatchObject({ id: ids.get('txt'), outcome: 'failed', lastErrorCode: 131047 });
    expect(txt).toEqual(await expected('txt', { phoneNumberId: 'pn-8', template: null }));
    const [many, lost] = await store.recordDeliveries(
      [
        { wamid: 'wamid.many', outboxId: null, status: 'read', errorCode: null },
        { wamid: 'wamid.lost', outboxId: ids.get('lost') ?? -1, status: 'sent', errorCode: null },
      ],
      T0 + 4,
    );
    expect(many).toMatchObject({ id: ids.get('many'), outcome: 'read' });
    expect(many).toEqual(await expected('many', { phoneNumberId: 'pn-9', template: { name: 'receipt', language: 'en' } }));
    expect(lost).toMatchObject({ id: ids.get('lost'), outcome: 'accepted', wamid: 'wamid.lost' });
    expect(lost).toEqual(await expected('lost', { phoneNumberId: 'pn-10', template: { name: 'receipt', language: 'es' } }));
  });

  it('settles a row by our callback data only while its answer is missing, never after a requeue', async () => {
    const store = await backend.open();
    const seed = await seedCampaign(store, T0, 2);
    await store.insertOutbox(
      seed.rows(() => T0),
      T0,
    );
    const [a, b] = await store.claimDue({ owner: 'w', now: T0, leaseMs: LEASE, limit: 2 });
    const [idA, idB] = [a?.id ?? -1, b?.id ?? -1];
    // A: the answer was lost (the process died); the status webhook names the row and settles it.
    await store.recordIntent(idA, 'w', T0);
    expect((await store.recordDelivery({ wamid: 'wamid.lost', outboxId: idA }, 'sent', null, T0 + 1))?.id ?? null).toBe(idA);
    expect(await store.getOutbox(idA)).toMatchObject({ status: 'sent', outcome: 'accepted', wamid: 'wamid.lost' });
    // B: accepted, then failed with 131049 and requeued; a `sent` of that attempt arriving late
    // (out of order, or a retry from Meta) leaves the requeued row alone.
    await store.recordIntent(idB, 'w', T0);
    await store.recordAccepted(idB, 'w', 'wamid.B1', T0 + 1);
    expect(await store.requeue(idB, { status: 'queued', until: T0 + 24 * HOUR, capAttempt: true, errorCode: 131049 }, T0 + 2)).toBe(true);
    const requeued = await store.getOutbox(idB);
    expect(requeued).toMatchObject({ status: 'queued', wamid: null });
    expect((await store.recordDelivery({ wamid: 'wamid.B1', outboxId: idB }, 'sent', null, T0 + 3))?.id ?? null).toBeNull();
    expect(await store.getOutbox(idB)).toEqual(requeued);
  });

  it('leaves an answered row as it was when its `sent` status arrives, with or without our callback data', async () => {
    const store = await backend.open();
    const seed = await seedCampaign(store, T0, 1);
    await store.insertOutbox(
      seed.rows(() => T0),
      T0,
    );
    const [row] = await store.claimDue({ owner: 'w', now: T0, leaseMs: LEASE, limit: 1 });
    const id = row?.id ?? -1;
    await store.recordIntent(id, 'w', T0);
    await store.recordAccepted(id, 'w', 'wamid.S1', T0 + 1);
    const answered = await store.getOutbox(id);
    expect(answered).toMatchObject({ status: 'sent', outcome: 'accepted', wamid: 'wamid.S1' });
    expect(await store.recordDelivery({ wamid: 'wamid.S1', outboxId: id }, 'sent', null, T0 + 2)).toBeNull();
    expect(await store.recordDelivery({ wamid: 'wamid.S1', outboxId: null }, 'sent', null, T0 + 3)).toBeNull();
    expect(await store.getOutbox(id)).toEqual(answered);
    // The statuses after it still find the row by its wamid alone.
    expect((await store.recordDelivery({ wamid: 'wamid.S1', outboxId: null }, 'delivered', null, T0 + 4))?.outcome).toBe('delivered');
  });

  it("keeps a status that came in before the send's answer was recorded", async () => {
    const store = await backend.open();
    const seed = await seedCampaign(store, T0, 1);
    await store.insertOutbox(
      seed.rows(() => T0),
      T0,
    );
    const [row] = await store.claimDue({ owner: 'w', now: T0, leaseMs: LEASE, limit: 1 });
    const id = row?.id ?? -1;
    await store.recordIntent(id, 'w', T0);
    // Meta's `delivered` overtakes its answer to the send: our callback data finds the row.
    expect((await store.recordDelivery({ wamid: 'wamid.E', outboxId: id }, 'delivered', null, T0 + 1))?.id).toBe(id);
    // The answer, recorded late, neither moves the outcome back nor takes the row again.
    expect(await store.recordAccepted(id, 'w', 'wamid.E', T0 + 2)).toBe(false);
    expect(await store.recordDelivery({ wamid: 'wamid.E', outboxId: id }, 'sent', null, T0 + 3)).toBeNull();
    expect(await store.getOutbox(id)).toMatchObject({ status: 'sent', outcome: 'delivered', wamid: 'wamid.E', leaseOwner: null });
  });

  it('reschedules a capped attempt, holds for a window and wakes on inbound', async () => {
    const store = await backend.open();
    const seed = await seedCampaign(store, T0, 2);
    await store.insertOutbox(
      seed.rows(() => T0),
      T0,
    );
    const [a, b] = await store.claimDue({ owner: 'w', now: T0, leaseMs: LEASE, limit: 2 });
    const [idA, idB] = [a?.id ?? -1, b?.id ?? -1];
    await store.recordIntent(idA, 'w', T0);
    const capped = { status: 'queued', until: T0 + 24 * HOUR, capAttempt: true, errorCode: 131049 } as const;
    expect(await store.reschedule(idA, 'w', capped, T0 + 1)).toBe(true);
    expect(await store.reschedule(idA, 'w', capped, T0 + 2)).toBe(false); // lease already released
    expect(await store.getOutbox(idA)).toMatchObject({
      status: 'queued',
      capAttempts: 1,
      attempts: 1,
      lastErrorCode: 131049,
      nextAttemptAt: T0 + 24 * HOUR,
    });

    expect(await store.reschedule(idB, 'w', { status: 'held', until: null, capAttempt: false, errorCode: null }, T0)).toBe(true);
    expect(await store.claimDue({ owner: 'w', now: T0 + 23 * HOUR, leaseMs: LEASE, limit: 5 })).toEqual([]);
    expect(await store.wakeHeld(b?.contactId ?? -1, T0 + HOUR)).toBe(1);
    const woken = await store.claimDue({ owner: 'w', now: T0 + HOUR, leaseMs: LEASE, limit: 5 });
    expect(woken.map((r) => r.id)).toEqual([idB]);
    expect(await store.claimDue({ owner: 'w', now: T0 + 24 * HOUR, leaseMs: LEASE, limit: 5 })).toMatchObject([
      { id: idA, capAttempts: 1 },
    ]);
  });

  it('completes and fails only for the lease owner', async () => {
    const store = await backend.open();
    const seed = await seedCampaign(store, T0, 2);
    await store.insertOutbox(
      seed.rows(() => T0),
      T0,
    );
    const [a, b] = await store.claimDue({ owner: 'w', now: T0, leaseMs: LEASE, limit: 2 });
    expect(await store.complete(a?.id ?? -1, 'other', 'skipped', T0)).toBe(false);
    expect(await store.complete(a?.id ?? -1, 'w', 'skipped', T0)).toBe(true);
    expect(await store.fail(b?.id ?? -1, 'w', 131026, T0)).toBe(true);
    expect(await store.getOutbox(b?.id ?? -1)).toMatchObject({ status: 'done', outcome: 'failed', lastErrorCode: 131026 });
    expect(await store.campaignCounters(seed.campaignId)).toMatchObject({ total: 2, done: 2, skipped: 1, failed: 1 });
  });

  it('sweeps expired leases: unstarted rows go back to the queue, started ones become unknown', async () => {
    const store = await backend.open();
    const seed = await seedCampaign(store, T0, 2);
    await store.insertOutbox(
      seed.rows(() => T0),
      T0,
    );
    const [idle, started] = await store.claimDue({ owner: 'crashed', now: T0, leaseMs: LEASE, limit: 2 });
    await store.recordIntent(started?.id ?? -1, 'crashed', T0 + 1);

    expect(await store.sweepExpiredLeases(T0 + LEASE - 1)).toEqual({ requeued: 0, unknown: 0 });
    // Past its lease a worker may no longer start the send.
    expect(await store.recordIntent(idle?.id ?? -1, 'crashed', T0 + LEASE)).toBe(false);
    expect(await store.sweepExpiredLeases(T0 + LEASE)).toEqual({ requeued: 1, unknown: 1 });

    const again = await store.claimDue({ owner: 'fresh', now: T0 + LEASE, leaseMs: LEASE, limit: 5 });
    expect(again.map((r) => r.id)).toEqual([idle?.id]); // the unknown row is never re-sent blindly
    expect(await store.getOutbox(started?.id ?? -1)).toMatchObject({ status: 'unknown', outcome: null, attempts: 1 });
    // Meta echoes our id in the status webhook: that settles the unknown row.
    expect((await store.recordDelivery({ wamid: 'wamid.S', outboxId: started?.id ?? -1 }, 'delivered', null, T0 + HOUR))?.id ?? null).toBe(
      started?.id,
    );
    expect(await store.getOutbox(started?.id ?? -1)).toMatchObject({ status: 'sent', outcome: 'delivered', wamid: 'wamid.S' });
  });
});

describe("Store contract: outbox, a status and the send's answer in two open transactions (postgres)", () => {
  const backend = BACKENDS.find((b) => b.name === 'postgres');
  if (backend === undefined) throw new Error('no PostgreSQL backend');

  /** A row mid-send, two stores on it, and a way to see one of them wait for the other's row lock. */
  async function midSend() {
    const place = backend!.place();
    const store = place.open();
    await store.migrate();
    const seed = await seedCampaign(store, T0, 1);
    await store.insertOutbox(
      seed.rows(() => T0),
      T0,
    );
    const [row] = await store.claimDue({ owner: 'w', now: T0, leaseMs: LEASE, limit: 1 });
    const id = row?.id ?? -1;
    await store.recordIntent(id, 'w', T0);
    const observer = new pg.Client({ connectionString: PG_URL });
    await observer.connect();
    onTestFinished(() => observer.end());
    // Backends of this schema waiting for a lock held by a transaction that changed its outbox.
    const waiting = async (): Promise<boolean> =>
      (
        await observer.query(
          `SELECT 1 FROM pg_stat_activity a WHERE EXISTS (SELECT 1 FROM pg_locks l WHERE l.pid = ANY(pg_blocking_pids(a.pid)) AND l.relation = $1::regclass)`,
          [`${place.options.schema}.outbox`],
        )
      ).rowCount !== 0;
    return { store, other: place.open(), id, waiting };
  }

  /** Runs one statement in a transaction and keeps it open (its row locks held) until released. */
  function holdOpen<T>(store: Store, statement: (tx: TxStore) => Promise<T>) {
    let release = (): void => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let ranWith = (_value: T): void => undefined;
    const ran = new Promise<T>((resolve) => (ranWith = resolve));
    const committed = store.transaction(async (tx) => {
      ranWith(await statement(tx));
      await gate;
    });
    // A statement that fails ends the transaction: its error, instead of a wait for nothing.
    const ended = committed.then(() => Promise.reject(new Error('the transaction ended before its statement ran')));
    return { ran: Promise.race([ran, ended]), committed, release: () => release() };
  }

  it("a status applied while the answer's transaction is open waits for it, then lands on the row", async () => {
    const { store, other, id, waiting } = await midSend();
    const answer = holdOpen(store, (tx) => tx.recordAccepted(id, 'w', 'wamid.C', T0 + 1));
    try {
      expect(await answer.ran).toBe(true);
      const status = other.recordDelivery({ wamid: 'wamid.C', outboxId: id }, 'delivered', null, T0 + 2);
      expect(await eventually(waiting, Date.now() + 10_000, 10)).toBe(true);
      answer.release();
      await answer.committed;
      // Re-checked against the committed answer: the row now carries the wamid, and moves forward.
      expect((await status)?.id).toBe(id);
    } finally {
      answer.release();
    }
    expect(await store.getOutbox(id)).toMatchObject({ status: 'sent', outcome: 'delivered', wamid: 'wamid.C' });
  });

  it("an answer recorded while the status's transaction is open waits for it, then leaves the row alone", async () => {
    const { store, other, id, waiting } = await midSend();
    const status = holdOpen(store, (tx) => tx.recordDelivery({ wamid: 'wamid.D', outboxId: id }, 'delivered', null, T0 + 1));
    try {
      expect((await status.ran)?.id).toBe(id);
      const answer = other.recordAccepted(id, 'w', 'wamid.D', T0 + 2);
      expect(await eventually(waiting, Date.now() + 10_000, 10)).toBe(true);
      status.release();
      await status.committed;
      expect(await answer).toBe(false);
    } finally {
      status.release();
    }
    expect(await store.getOutbox(id)).toMatchObject({ status: 'sent', outcome: 'delivered', wamid: 'wamid.D', leaseOwner: null });
  });
});
