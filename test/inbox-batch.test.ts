import { describe, expect, it } from 'vitest';
import { statusError, webhookBody, type OutEvent, type StatusObject } from '../src/adapters/simulator/payloads.js';
import { parseWebhook } from '../src/adapters/webhook/parse-webhook.js';
import { processInbox, type InboxDeps } from '../src/app/process-inbox.js';
import { loadContactState } from '../src/app/update-contact-state.js';
import { DEFAULT_POLICY } from '../src/core/policy.js';
import type { Store } from '../src/ports/store.js';
import { claimedMixedRows, NUMBERS, T0, waId } from './batch-world.js';
import { BACKENDS, type TestBackend } from './store-backends.js';

// A batch of payloads is applied whole, with set-based statements; it must end exactly where applying
// each payload on its own ends, and a payload that fails is still undone and quarantined alone.

const NOW = T0 + 3_600_000;
const OWNER = 'w1';
const CONTACTS = 6;

/** Rows sent from two numbers for two campaigns; row 5's answer was lost (sending, no wamid). */
async function world(store: Store): Promise<{ rowIds: number[]; contactIds: number[] }> {
  const { rows } = await claimedMixedRows(store, CONTACTS, OWNER);
  for (const [i, r] of rows.entries()) {
    await store.recordIntent(r.id, OWNER, T0);
    if (i !== 5) await store.recordAccepted(r.id, OWNER, `wamid.m${i}`, T0);
  }
  return { rowIds: rows.map((r) => r.id), contactIds: rows.map((r) => r.contactId) };
}

function status(i: number, rowId: number | null, s: StatusObject['status'], at: number, code?: number, wamid = `wamid.m${i}`): OutEvent {
  const object: StatusObject = {
    id: wamid,
    status: s,
    timestamp: String(at / 1000),
    recipient_id: waId(i),
    ...(rowId === null ? {} : { biz_opaque_callback_data: `pacer:${rowId}` }),
    pricing: { billable: true, pricing_model: 'PMP', category: 'marketing', type: 'regular' },
  };
  if (code !== undefined) object.errors = [statusError(code)];
  return { kind: 'status', status: object };
}

/**
 * Statuses of both numbers' campaigns: delivered and read of one message side by side, a cap failure
 * (the row is requeued), a delivery after read (moves nothing), a repeat, a status of the row whose
 * answer was lost (settled by our callback data), a reply that opens a window, a message not ours.
 */
function payloads(rowIds: readonly number[], poison: boolean): Buffer[] {
  const at = (s: number) => T0 + s * 1000;
  const n = (i: number) => NUMBERS[i % 2]!;
  const events: Array<[number, OutEvent[]]> = [
    [0, [status(0, rowIds[0]!, 'delivered', at(10))]],
    [0, [status(0, rowIds[0]!, 'read', at(12))]],
    [1, [status(1, rowIds[1]!, 'read', at(11))]],
    [1, [status(1, rowIds[1]!, 'delivered', at(10))]],
    [2, [status(2, rowIds[2]!, 'failed', at(13), 131049)]],
    [3, [status(3, rowIds[3]!, 'delivered', at(14)), status(4, rowIds[4]!, 'delivered', at(14))]],
    [0, [status(0, rowIds[0]!, 'delivered', at(10))]], // a repeat
    [5, [status(5, rowIds[5]!, 'delivered', at(15))]],
    [
      3,
      [
        {
          kind: 'inbound',
          contact: { profile: { name: 'User 3' }, wa_id: waId(3), user_id: 'US.3' },
          message: {
            from: waId(3),
            from_user_id: 'US.3',
            id: 'wamid.in-3',
            timestamp: String(at(16) / 1000),
            type: 'text',
            text: { body: 'Hello!' },
          },
        },
      ],
    ],
    [1, [status(9, null, 'read', at(17))]], // sent from elsewhere: no row of ours
  ];
  if (poison) events.splice(5, 0, [4, [status(4, null, 'sent', at(9), undefined, 'wamid.poison')]]);
  return events.map(([i, e]) => Buffer.from(JSON.stringify(webhookBody(n(i), e))));
}

const deps = (store: Store): InboxDeps => ({
  store,
  policy: DEFAULT_POLICY,
  clock: { now: () => NOW },
  random: () => 0.5,
  parse: parseWebhook,
});

async function finalState(store: Store, rowIds: readonly number[], contactIds: readonly number[]): Promise<unknown> {
  const rows = await Promise.all(
    rowIds.map(async (id) => {
      const r = await store.getOutbox(id);
      return (
        r && { status: r.status, outcome: r.outcome, error: r.lastErrorCode, next: r.nextAttemptAt, wamid: r.wamid, attempts: r.attempts }
      );
    }),
  );
  const states = (await Promise.all(contactIds.map((id) => loadContactState(store, id)))).map((s) => ({ ...s, seen: [...s.seen].sort() }));
  const versions = await Promise.all(contactIds.map(async (id) => (await store.loadContactState(id))?.version ?? 0));
  return { rows, states, versions };
}

/** Applies the payloads in batches of `limit`; the final state and what was quarantined. */
async function apply(backend: TestBackend, bodies: (rowIds: number[]) => Buffer[], limit: number) {
  const store = await backend.open();
  const { rowIds, contactIds } = await world(store);
  for (const raw of bodies(rowIds)) await store.appendInbox({ raw, receivedAt: NOW, signatureOk: true });
  // Savepoints taken: one for a batch applied whole, one more per payload when it went one by one.
  let savepoints = 0;
  const counting: Store = {
    ...store,
    transaction: (work) =>
      store.transaction((tx) =>
        work({
          ...tx,
          savepoint: (part) => {
            savepoints++;
            return tx.savepoint(part);
          },
        }),
      ),
  };
  const run = { ...deps(store), store: counting };
  if (limit === Infinity) expect((await processInbox(run, 1000)).rows).toBe(bodies(rowIds).length);
  else for (;;) if ((await processInbox(run, limit)).rows === 0) break;
  const quarantined = (await store.listQuarantinedInbox(0, 10)).map((q) => ({
    reason: q.quarantineReason,
    poison: Buffer.from(q.raw).toString().includes('wamid.poison'),
  }));
  return { state: await finalState(store, rowIds, contactIds), quarantined, savepoints };
}

describe.each(BACKENDS)('inbox batch ($name)', (backend) => {
  it('a batch mixing campaigns and numbers ends as applying each payload on its own', async () => {
    const whole = await apply(backend, (ids) => payloads(ids, false), Infinity);
    const alone = await apply(backend, (ids) => payloads(ids, false), 1);
    expect(whole.quarantined).toEqual([]);
    expect(alone.quarantined).toEqual([]);
    expect(whole.state).toEqual(alone.state);
    expect(whole.savepoints).toBe(1); // applied whole, not one by one
    // It did something: the cap failure requeued its row, the lost answer's row was settled by id.
    const { rows } = whole.state as { rows: Array<{ status: string; outcome: string | null; wamid: string | null }> };
    expect(rows[2]).toMatchObject({ status: 'queued', wamid: null });
    expect(rows[5]).toMatchObject({ status: 'sent', outcome: 'delivered', wamid: 'wamid.m5' });
    expect(rows[0]).toMatchObject({ outcome: 'read' });
  });

  it('a payload that fails inside a batch is undone and quarantined alone; the rest of the batch is applied', async () => {
    // A rule the schema does not have, on message events: the batch's one insert of them fails whole.
    const ruled = backend.place();
    const store = ruled.open();
    await store.migrate();
    await ruled.raw(
      backend.name === 'postgres'
        ? `ALTER TABLE message_events ADD CONSTRAINT no_poison CHECK (wamid <> 'wamid.poison')`
        : `CREATE TRIGGER no_poison BEFORE INSERT ON message_events WHEN NEW.wamid = 'wamid.poison' BEGIN SELECT RAISE(ABORT, 'poison refused'); END`,
    );
    const { rowIds, contactIds } = await world(store);
    for (const raw of payloads(rowIds, true)) await store.appendInbox({ raw, receivedAt: NOW, signatureOk: true });
    const result = await processInbox(deps(store), 1000);
    expect(result).toMatchObject({ rows: payloads(rowIds, true).length, quarantined: 1 });
    const quarantined = await store.listQuarantinedInbox(0, 10);
    expect(quarantined).toHaveLength(1);
    expect(Buffer.from(quarantined[0]!.raw).toString()).toContain('wamid.poison');
    expect(quarantined[0]!.quarantineReason).toMatch(/^processing failed: appendMessageEvent: (PostgreSQL 23514|SQLite SQLITE_CONSTRAINT)/);
    // Everything else ends as the same payloads without the bad one, each applied on its own.
    const reference = await apply(backend, (ids) => payloads(ids, false), 1);
    expect(await finalState(store, rowIds, contactIds)).toEqual(reference.state);
    expect(await store.listUnprocessedInbox(0, 10)).toEqual([]);
  });

  it('a status of a row whose intent names no number is quarantined with the reason; the rest of the batch is applied', async () => {
    const place = backend.place();
    const store = place.open();
    await store.migrate();
    const { rowIds, contactIds } = await world(store);
    // Only a row written outside Pacer can lack its number: every insert path writes it from the intent.
    await place.raw(`UPDATE outbox SET phone_number_id = NULL WHERE id = ${rowIds[3]!}`);
    const bodies = payloads(rowIds, false);
    for (const raw of bodies) await store.appendInbox({ raw, receivedAt: NOW, signatureOk: true });
    expect(await processInbox(deps(store), 1000)).toMatchObject({ rows: bodies.length, quarantined: 1 });
    const [quarantined, ...others] = await store.listQuarantinedInbox(0, 10);
    expect(others).toEqual([]);
    expect(Buffer.from(quarantined!.raw).toString()).toContain('wamid.m3');
    expect(quarantined!.quarantineReason).toBe(`processing failed: outbox row ${rowIds[3]!}: bad intent: phoneNumberId missing`);
    // The payloads around it were applied: row 0 was read, the cap failure requeued row 2.
    const { rows } = (await finalState(store, rowIds, contactIds)) as { rows: Array<{ status: string; outcome: string | null }> };
    expect(rows[0]).toMatchObject({ outcome: 'read' });
    expect(rows[2]).toMatchObject({ status: 'queued' });
    expect(await store.listUnprocessedInbox(0, 10)).toEqual([]);
  });

  it('a contact state saved by another process during the batch sends the batch one by one, applied all the same', async () => {
    const alone = await apply(backend, (ids) => payloads(ids, false), 1);
    const store = await backend.open();
    const { rowIds, contactIds } = await world(store);
    for (const raw of payloads(rowIds, false)) await store.appendInbox({ raw, receivedAt: NOW, signatureOk: true });
    let batchSaves = 0;
    // The batch's final write finds every state moved on (as a concurrent save would leave it).
    const racing: Store = {
      ...store,
      transaction: (work) =>
        store.transaction((tx) =>
          work({
            ...tx,
            saveContactStates: async () => {
              batchSaves++;
              return new Set<number>();
            },
          }),
        ),
    };
    expect(await processInbox({ ...deps(store), store: racing }, 1000)).toMatchObject({ quarantined: 0 });
    expect(batchSaves).toBe(1);
    expect(await finalState(store, rowIds, contactIds)).toEqual(alone.state);
  });
});
