import { describe, expect, it } from 'vitest';
import { importContactRecords } from '../src/app/import-contact-records.js';
import { DEFAULT_POLICY } from '../src/core/policy.js';
import { iso, MINUTE } from '../src/core/time.js';
import { body, PHONE_NUMBER_ID, readRows, startApi, T0, type ApiRig } from './api-harness.js';
import { BACKENDS } from './store-backends.js';

interface Queued {
  id: number;
  queued: boolean;
  reference: string | null;
  idempotencyKey: string;
}

async function utilityContact(rig: ApiRig): Promise<void> {
  await importContactRecords(
    rig.store,
    [{ phoneE164: '+447911123456', name: null, tags: [], attributes: {}, consent: { utility: true } }],
    'test',
    DEFAULT_POLICY,
    T0 - 1000,
  );
}

const orderUpdate = (o: Record<string, unknown> = {}) => ({
  to: '+447911123456',
  category: 'utility',
  template: { name: 'order_update', language: 'en_GB' },
  ...o,
});

describe.each(BACKENDS)("REST API: a message's id, reference and status ($name)", (backend) => {
  it("answers Pacer's message id and keeps the caller's reference; the same key answers the first message", async () => {
    const rig = await startApi(backend);
    await utilityContact(rig);
    const first = await rig.call('POST', '/api/v1/messages', { body: orderUpdate({ idempotencyKey: 'order-42', reference: 'ORDER-42' }) });
    expect(first.status, first.text).toBe(202);
    const q = body<Queued>(first);
    expect(q).toMatchObject({ queued: true, reference: 'ORDER-42', idempotencyKey: 'order-42' });
    expect(first.headers['location']).toBe(`/api/v1/messages/${q.id}`);
    const [row] = await readRows(rig.place, `SELECT id, client_reference FROM outbox WHERE idempotency_key = 'order-42'`);
    expect({ id: Number(row?.['id']), reference: row?.['client_reference'] }).toEqual({ id: q.id, reference: 'ORDER-42' });
    expect((await rig.store.getOutbox(q.id))?.clientReference).toBe('ORDER-42');
    // A retry of the request (another reference, even) changes nothing and names the same message.
    const again = await rig.call('POST', '/api/v1/messages', { body: orderUpdate({ idempotencyKey: 'order-42', reference: 'OTHER' }) });
    expect(again).toMatchObject({ status: 200, json: { id: q.id, queued: false, reference: 'ORDER-42' } });
    // Without a reference: null, and a generated key.
    const plain = body<Queued>(await rig.call('POST', '/api/v1/messages', { body: orderUpdate() }));
    expect(plain).toMatchObject({ queued: true, reference: null });
    expect(plain.id).not.toBe(q.id);
    const status = await rig.call('GET', `/api/v1/messages/${q.id}`);
    expect(status).toMatchObject({
      status: 200,
      json: {
        id: q.id,
        reference: 'ORDER-42',
        idempotencyKey: 'order-42',
        campaignId: null,
        from: PHONE_NUMBER_ID,
        category: 'utility',
        template: { name: 'order_update', language: 'en_GB' },
        status: 'queued',
        outcome: null,
        wamid: null,
        attempts: 0,
        nextAttemptAt: iso(T0),
        lastError: null,
        history: [],
        createdAt: iso(T0),
      },
    });
    expect(status.text).not.toContain('7911123456');
  });

  it('refuses a bad reference and unknown fields by name, queueing nothing', async () => {
    const rig = await startApi(backend);
    await utilityContact(rig);
    const cases: Array<[unknown, string[]]> = [
      [orderUpdate({ reference: '' }), ['reference']],
      [orderUpdate({ reference: '   ' }), ['reference']],
      [orderUpdate({ reference: 'x'.repeat(201) }), ['reference']],
      [orderUpdate({ reference: 42 }), ['reference']],
      [orderUpdate({ ref: 'ORDER-42' }), ['ref']],
      [orderUpdate({ template: { name: 'order_update', lang: 'en_GB' } }), ['template.lang']],
    ];
    for (const [payload, paths] of cases) {
      const r = await rig.call('POST', '/api/v1/messages', { body: payload });
      expect(r.status, JSON.stringify(payload)).toBe(400);
      expect(body<{ issues: Array<{ path: string }> }>(r).issues.map((i) => i.path)).toEqual(paths);
    }
    expect(await rig.call('POST', '/api/v1/messages', { body: orderUpdate({ reference: 'x'.repeat(200) }) })).toMatchObject({
      status: 202,
    });
    expect(await rig.store.outboxTotals()).toMatchObject({ byStatus: { queued: 1 } });
  });

  it('follows a message through its decisions and statuses, with the last error as the catalogue explains it', async () => {
    const rig = await startApi(backend);
    await utilityContact(rig);
    const { id } = body<Queued>(await rig.call('POST', '/api/v1/messages', { body: orderUpdate({ reference: 'R-1' }) }));
    const [row] = await rig.store.claimDue({ owner: 'w', now: T0, leaseMs: MINUTE, limit: 1 });
    expect(row?.id).toBe(id);
    await rig.store.appendDecisions([
      { outboxId: id, contactId: row?.contactId ?? -1, kind: 'send', reason: 'ok', explanation: 'it may go now', until: null, at: T0 },
    ]);
    await rig.store.recordIntent(id, 'w', T0);
    await rig.store.recordAccepted(id, 'w', 'wamid.HBgM', T0);
    await rig.store.appendMessageEvent(
      { wamid: 'wamid.HBgM', status: 'sent', at: T0 + 1000, errorCode: null, inboxId: null, outboxId: id },
      T0,
    );
    await rig.store.recordDelivery({ wamid: 'wamid.HBgM', outboxId: id }, 'sent', null, T0 + 1000);
    await rig.store.appendMessageEvent(
      { wamid: 'wamid.HBgM', status: 'failed', at: T0 + 2000, errorCode: 131026, inboxId: null, outboxId: id },
      T0,
    );
    await rig.store.recordDelivery({ wamid: 'wamid.HBgM', outboxId: id }, 'failed', 131026, T0 + 2000);
    const r = await rig.call('GET', `/api/v1/messages/${id}`);
    expect(r.status, r.text).toBe(200);
    expect(r.json).toMatchObject({
      id,
      reference: 'R-1',
      wamid: 'wamid.HBgM',
      attempts: 1,
      outcome: 'failed',
      nextAttemptAt: null,
      lastError: {
        code: 131026,
        class: 'recipient_undeliverable',
        name: expect.any(String) as string,
        meaning: expect.any(String) as string,
      },
      history: [
        { type: 'decision', at: iso(T0), kind: 'send', reason: 'ok', explanation: 'it may go now', until: null },
        { type: 'status', at: iso(T0 + 1000), status: 'sent', error: null },
        { type: 'status', at: iso(T0 + 2000), status: 'failed', error: { code: 131026, class: 'recipient_undeliverable' } },
      ],
    });
    expect(await rig.call('GET', '/api/v1/messages/999999')).toMatchObject({ status: 404, json: { error: 'not_found' } });
    expect(await rig.call('GET', '/api/v1/messages/abc')).toMatchObject({ status: 400, json: { issues: [{ path: 'id' }] } });
  });

  it("reads a campaign's recipient as a message too", async () => {
    const rig = await startApi(backend);
    await utilityContact(rig);
    await rig.store.upsertTemplates(
      [{ name: 'order_update', language: 'en_GB', category: 'utility', status: 'approved', quality: null, pausedUntil: null }],
      T0,
    );
    const created = await rig.call('POST', '/api/v1/campaigns', {
      body: { name: 'Orders', template: { name: 'order_update', language: 'en_GB' } },
    });
    const campaignId = body<{ id: number }>(created).id;
    expect(await rig.call('POST', `/api/v1/campaigns/${campaignId}/start`)).toMatchObject({
      status: 200,
      json: { start: { inserted: 1 } },
    });
    const [recipient] = body<{ items: Array<{ messageId: number }> }>(
      await rig.call('GET', `/api/v1/campaigns/${campaignId}/recipients`),
    ).items;
    expect(await rig.call('GET', `/api/v1/messages/${recipient?.messageId ?? -1}`)).toMatchObject({
      status: 200,
      json: {
        campaignId,
        reference: null,
        idempotencyKey: null,
        from: PHONE_NUMBER_ID,
        template: { name: 'order_update', language: 'en_GB' },
        status: 'queued',
      },
    });
  });
});
