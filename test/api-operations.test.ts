import { describe, expect, it } from 'vitest';
import { iso } from '../src/core/time.js';
import { body, startApi, T0 } from './api-harness.js';
import { BACKENDS } from './store-backends.js';
import { seedCampaign } from './store-seed.js';

interface Page {
  items: Array<{ id: number; reason: string | null; bytes: number; signed: boolean; receivedAt: string }>;
  next: string | null;
}

const payload = (n: number) =>
  new TextEncoder().encode(JSON.stringify({ object: 'whatsapp_business_account', entry: [{ id: String(n) }] }));

describe.each(BACKENDS)('REST API: webhook quarantine and /metrics ($name)', (backend) => {
  it('pages through quarantined payloads without showing them, and replays chosen ids or all', async () => {
    const rig = await startApi(backend);
    const ids: number[] = [];
    for (let n = 0; n < 3; n++) {
      const id = await rig.store.appendInbox({ raw: payload(n), receivedAt: T0 + n, signatureOk: true });
      await rig.store.quarantineInbox(id, `bad item ${n}`, T0 + n);
      ids.push(id);
    }
    await rig.store.appendInbox({ raw: payload(9), receivedAt: T0, signatureOk: true }); // not quarantined
    const p1 = body<Page>(await rig.call('GET', '/api/v1/webhooks/quarantine?limit=2'));
    expect(p1.items).toEqual([
      { id: ids[0], receivedAt: iso(T0), bytes: payload(0).byteLength, signed: true, reason: 'bad item 0' },
      { id: ids[1], receivedAt: iso(T0 + 1), bytes: payload(1).byteLength, signed: true, reason: 'bad item 1' },
    ]);
    const p2 = body<Page>(await rig.call('GET', `/api/v1/webhooks/quarantine?limit=2&after=${p1.next ?? ''}`));
    expect(p2).toEqual({ items: [expect.objectContaining({ id: ids[2] }) as unknown], next: null });

    expect(await rig.call('POST', '/api/v1/webhooks/quarantine/replay', { body: { ids: [ids[1]] } })).toMatchObject({
      status: 200,
      json: { released: 1 },
    });
    expect(rig.replays).toBe(1);
    expect(body<Page>(await rig.call('GET', '/api/v1/webhooks/quarantine')).items.map((i) => i.id)).toEqual([ids[0], ids[2]]);
    expect(await rig.call('POST', '/api/v1/webhooks/quarantine/replay', { body: { all: true } })).toMatchObject({
      status: 200,
      json: { released: 2 },
    });
    expect(body<Page>(await rig.call('GET', '/api/v1/webhooks/quarantine')).items).toEqual([]);
    expect((await rig.store.listUnprocessedInbox(0, 10)).length).toBe(4);
    expect(await rig.call('POST', '/api/v1/webhooks/quarantine/replay', { body: { all: true } })).toMatchObject({ json: { released: 0 } });
    expect(rig.replays).toBe(2);
  });

  it('refuses a replay that names neither ids nor all, or both, naming the field', async () => {
    const rig = await startApi(backend);
    for (const bad of [{}, { ids: [] }, { ids: [1], all: true }, { all: false }, { ids: ['x'] }]) {
      const r = await rig.call('POST', '/api/v1/webhooks/quarantine/replay', { body: bad });
      expect(r.status, JSON.stringify(bad)).toBe(400);
      expect(r.json, JSON.stringify(bad)).toMatchObject({
        error: 'invalid_body',
        issues: [{ path: expect.stringMatching(/^(ids|all)/) as string }],
      });
    }
  });

  it('exposes queue depth, outcomes, paused campaigns, webhook ingest and API refusals in Prometheus text format', async () => {
    const rig = await startApi(backend);
    const seed = await seedCampaign(rig.store, T0, 3);
    await rig.store.insertOutbox(
      seed.rows(() => T0),
      T0,
    );
    const [row] = await rig.store.claimDue({ owner: 'w', now: T0, leaseMs: 60_000, limit: 1 });
    await rig.store.complete(row?.id ?? -1, 'w', 'skipped', T0);
    await rig.store.setCampaignStatus(seed.campaignId, 'paused', 'breaker', T0);
    rig.app.pacerMetrics.webhookStored = 7;
    rig.app.pacerMetrics.webhookRejected.mismatch = 2;
    await rig.call('GET', '/api/v1/contacts', { token: 'pacer_wrong' });
    const r = await rig.call('GET', '/metrics', { token: null });
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
    const lines = r.text.split('\n');
    for (const expected of [
      'pacer_outbox_rows{status="queued"} 2',
      'pacer_outbox_rows{status="done"} 1',
      'pacer_outbox_outcomes{outcome="skipped"} 1',
      'pacer_outbox_outcomes{outcome="delivered"} 0',
      'pacer_campaigns_paused 1',
      'pacer_sender_state{phone_number_id="pn-1",state="ok"} 1',
      'pacer_sender_state{phone_number_id="pn-1",state="stopped"} 0',
      'pacer_webhooks_stored_total 7',
      'pacer_webhooks_rejected_total{reason="mismatch"} 2',
      'pacer_api_unauthorized_total{reason="unknown"} 1',
      '# TYPE pacer_outbox_rows gauge',
      '# TYPE pacer_webhooks_stored_total counter',
    ])
      expect(lines).toContain(expected);
    // Every sample line is `name{labels} value` with a HELP and TYPE for its family.
    for (const line of lines.filter((l) => l !== '' && !l.startsWith('#'))) {
      expect(line).toMatch(/^[a-z_]+(\{[a-z_]+="[^"]*"(,[a-z_]+="[^"]*")*\})? \d+$/);
      expect(lines).toContain(`# TYPE ${line.split(/[{ ]/)[0] ?? ''} ${line.includes('_total') ? 'counter' : 'gauge'}`);
    }
  });
});
