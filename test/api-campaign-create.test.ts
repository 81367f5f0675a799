import { describe, expect, it } from 'vitest';
import { DAY, HOUR, iso } from '../src/core/time.js';
import { body, PHONE_NUMBER_ID, startApi, T0, type ApiRig } from './api-harness.js';
import { addCouponTemplate, COUPON_MAPPING } from './preview-seed.js';
import { BACKENDS } from './store-backends.js';

interface Refusal {
  error: string;
  message: string;
  issues: Array<{ path: string; message: string }>;
}

const create = (rig: ApiRig, payload: unknown) => rig.call('POST', '/api/v1/campaigns', { body: payload });

async function templates(rig: ApiRig): Promise<void> {
  await addCouponTemplate(rig.store, T0);
  await rig.store.upsertTemplates(
    [
      { name: 'order_update', language: 'en_GB', category: 'utility', status: 'approved', quality: null, pausedUntil: null },
      { name: 'old_offer', language: 'en_US', category: 'marketing', status: 'rejected', quality: null, pausedUntil: null },
    ],
    T0,
  );
}

describe.each(BACKENDS)('REST API: creating campaigns ($name)', (backend) => {
  it('creates a draft with everything pacer campaign create takes, and answers it as stored', async () => {
    const rig = await startApi(backend);
    await templates(rig);
    const r = await create(rig, {
      name: 'Coupons',
      template: { name: 'coupon_drop', language: 'en_US' },
      parameters: { ...COUPON_MAPPING, 'body.1': { attribute: 'first_name', fallback: 'there' } },
      segment: { tagsAll: ['vip'], exclude: ['stopped'] },
      sender: '106540352242999',
      policyPreset: '24h',
      frequencyCap: '1/7d',
      timing: {
        window: { from: '09:00', to: '20:00', days: ['mon', 'tue', 'wed', 'thu', 'fri'] },
        timeZone: 'Europe/London',
        maxDelayMs: 12 * HOUR,
      },
      scheduledAt: '2026-01-06T09:00:00+01:00',
      endsAt: '2026-01-08T09:00:00Z',
    });
    expect(r.status, r.text).toBe(201);
    const id = body<{ id: number }>(r).id;
    expect(r.headers['location']).toBe(`/api/v1/campaigns/${id}`);
    expect(r.json).toMatchObject({
      name: 'Coupons',
      status: 'draft',
      senderPool: null,
      // A marketing template's segment gets marketing consent unless it names consent itself.
      segment: { tagsAll: ['vip'], exclude: ['stopped'], consent: ['marketing'] },
      scheduledAt: iso(Date.UTC(2026, 0, 6, 8, 0, 0)),
      endsAt: iso(Date.UTC(2026, 0, 8, 9, 0, 0)),
      policyPreset: '24h',
      frequencyCap: { max: 1, windowMs: 7 * DAY },
      parameters: { ...COUPON_MAPPING, 'body.1': { attribute: 'first_name', fallback: 'there' } },
      timing: {
        window: { from: '09:00', to: '20:00', days: ['mon', 'tue', 'wed', 'thu', 'fri'] },
        timeZone: 'Europe/London',
        maxDelayMs: 12 * HOUR,
      },
      counters: { total: 0 },
      createdAt: iso(T0),
    });
    const stored = await rig.store.getCampaign(id);
    const sender = await rig.store.getSender('106540352242999');
    expect(stored).toMatchObject({ senderId: sender?.id, status: 'draft', frequencyCap: { max: 1, windowMs: 7 * DAY } });
    // GET answers the same campaign, with what governs its hours.
    expect((await rig.call('GET', `/api/v1/campaigns/${id}`)).json).toMatchObject({
      timing: { window: { from: '09:00', to: '20:00' } },
      timingInEffect: { from: 'campaign', timeZone: 'Europe/London', maxDelayMs: 12 * HOUR },
    });
  });

  it("takes a template by id, the server's number by default, a cap as {max, windowMs}, and a pool", async () => {
    const rig = await startApi(backend);
    await templates(rig);
    const utility = (await rig.store.getTemplate('order_update', 'en_GB'))?.id;
    const byId = await create(rig, { name: 'Orders', template: { id: utility }, frequencyCap: { max: 0, windowMs: 0 } });
    expect(byId).toMatchObject({
      status: 201,
      json: {
        templateId: utility,
        segment: {},
        policyPreset: 'meta',
        frequencyCap: { max: 0, windowMs: 0 },
        scheduledAt: null,
        timing: null,
      },
    });
    const own = await rig.store.getSender(PHONE_NUMBER_ID);
    expect(body<{ senderId: number }>(byId).senderId).toBe(own?.id);
    const spread = await create(rig, {
      name: 'Spread',
      template: { id: utility },
      senderPool: { by: 'spread', numbers: ['106540352242931', '106540352242932'] },
    });
    expect(spread).toMatchObject({ status: 201, json: { senderPool: { by: 'spread', numbers: ['106540352242931', '106540352242932'] } } });
    expect(body<{ senderId: number }>(spread).senderId).toBe((await rig.store.getSender('106540352242931'))?.id);
    const byCountry = await create(rig, {
      name: 'By country',
      template: { id: utility },
      senderPool: { by: 'country', countries: { gb: '106540352242931', DE: '106540352242932' } },
    });
    expect(byCountry).toMatchObject({
      status: 201,
      json: { senderPool: { by: 'country', countries: { GB: '106540352242931', DE: '106540352242932' }, otherwise: null } },
    });
  });

  it('refuses what the CLI refuses, naming the field, and stores nothing', async () => {
    const rig = await startApi(backend);
    await templates(rig);
    const coupon = { name: 'coupon_drop', language: 'en_US' };
    const ok = { name: 'C', template: coupon, parameters: COUPON_MAPPING };
    const cases: Array<[unknown, string, string[]]> = [
      [{ ...ok, bogus: 1 }, 'invalid_body', ['bogus']],
      [{ ...ok, segment: { tag: ['vip'] } }, 'invalid_body', ['segment.tag']],
      [{ ...ok, segment: { tagsAll: 'vip' } }, 'invalid_body', ['segment.tagsAll']],
      [{ ...ok, name: ' ' }, 'invalid_body', ['name']],
      [{ ...ok, parameters: { ...COUPON_MAPPING, 'body.1': { attr: 'first_name' } } }, 'invalid_body', ['parameters.body.1']],
      [
        { ...ok, parameters: { 'body.1': { attribute: 'first_name' }, 'button.0': { value: 'X' } } },
        'invalid_parameters',
        ['parameters.body.2'],
      ],
      [{ ...ok, parameters: { ...COUPON_MAPPING, 'body.9': { value: 'x' } } }, 'invalid_parameters', ['parameters.body.9']],
      [{ ...ok, parameters: { ...COUPON_MAPPING, 'body.2': { value: 'two\nlines' } } }, 'invalid_parameters', ['parameters.body.2']],
      [{ ...ok, template: { name: 'nope' } }, 'unknown_template', ['template']],
      [{ ...ok, template: { id: 999 } }, 'unknown_template', ['template.id']],
      [{ ...ok, template: { id: 1, name: 'coupon_drop' } }, 'invalid_body', ['template.name']],
      [{ ...ok, template: {} }, 'invalid_body', ['template.name']],
      [{ ...ok, template: { id: 1, language: 'en_US' } }, 'invalid_body', ['template.language']],
      [{ name: 'C', template: { name: 'old_offer', language: 'en_US' } }, 'template_unavailable', ['template']],
      [
        { name: 'C', template: { name: 'order_update', language: 'en_GB' }, parameters: { 'body.1': { value: 'x' } } },
        'invalid_parameters',
        ['parameters'],
      ],
      [{ ...ok, scheduledAt: 'tomorrow' }, 'invalid_body', ['scheduledAt']],
      [{ ...ok, scheduledAt: '2026-01-06T09:00:00' }, 'invalid_body', ['scheduledAt']],
      [{ ...ok, endsAt: '2026-01-05T08:00:00Z' }, 'invalid_body', ['endsAt']],
      [{ ...ok, scheduledAt: '2026-01-09T00:00:00Z', endsAt: '2026-01-08T00:00:00Z' }, 'invalid_body', ['endsAt']],
      [{ ...ok, policyPreset: 'weekly' }, 'invalid_body', ['policyPreset']],
      [{ ...ok, frequencyCap: '99/7d' }, 'invalid_body', ['frequencyCap']],
      [{ ...ok, frequencyCap: { max: 2, windowMs: 10 } }, 'invalid_body', ['frequencyCap']],
      [{ ...ok, timing: { window: { from: '25:00', to: '20:00' } } }, 'invalid_body', ['timing.window.from']],
      [{ ...ok, timing: { window: { from: '09:00', to: '20:00', days: ['funday'] } } }, 'invalid_body', ['timing.window.days.0']],
      [{ ...ok, timing: { timeZone: 'Mars/Olympus' } }, 'invalid_body', ['timing.timeZone']],
      [{ ...ok, timing: { maxDelayMs: 1000 } }, 'invalid_body', ['timing.maxDelayMs']],
      [{ ...ok, sender: 'pn-1' }, 'invalid_body', ['sender']],
      [
        { ...ok, sender: '106540352242931', senderPool: { by: 'spread', numbers: ['106540352242931', '106540352242932'] } },
        'invalid_body',
        ['senderPool'],
      ],
      [{ ...ok, senderPool: { by: 'spread', numbers: ['106540352242931'] } }, 'invalid_body', ['senderPool.numbers']],
      [{ ...ok, senderPool: { by: 'spread', numbers: ['106540352242931', '106540352242931'] } }, 'invalid_sender_pool', ['senderPool']],
      [{ ...ok, senderPool: { by: 'country', countries: { XX: '106540352242931' } } }, 'invalid_sender_pool', ['senderPool']],
    ];
    for (const [payload, code, paths] of cases) {
      const r = await create(rig, payload);
      const what = `${JSON.stringify(payload)} → ${r.text}`;
      expect(r.status, what).toBe(400);
      const b = body<Refusal>(r);
      expect(b.error, what).toBe(code);
      expect(
        b.issues.map((i) => i.path),
        what,
      ).toEqual(paths);
      expect(b.issues.every((i) => i.message.length > 0 && b.message.includes(i.path))).toBe(true);
    }
    expect(await rig.store.listCampaigns({})).toEqual([]);
    // Pool numbers are registered only once a campaign is created.
    expect((await rig.store.listSenders()).map((s) => s.phoneNumberId)).toEqual([]);
  });

  it('creates once for one Idempotency-Key: a retry gets the first answer back', async () => {
    const rig = await startApi(backend);
    await templates(rig);
    const payload = { name: 'Orders', template: { name: 'order_update', language: 'en_GB' } };
    const headers = { 'idempotency-key': 'crm-campaign-7' };
    const first = await rig.call('POST', '/api/v1/campaigns', { body: payload, headers });
    expect(first.status).toBe(201);
    const again = await rig.call('POST', '/api/v1/campaigns', { body: payload, headers });
    expect(again).toMatchObject({ status: 201, json: { id: body<{ id: number }>(first).id } });
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(await rig.call('POST', '/api/v1/campaigns', { body: { ...payload, name: 'Other' }, headers })).toMatchObject({
      status: 422,
      json: { error: 'idempotency_key_reused' },
    });
    expect(await rig.store.listCampaigns({})).toHaveLength(1);
    // Without the header each request is a campaign of its own, as with pacer campaign create.
    expect((await create(rig, payload)).status).toBe(201);
    expect(await rig.store.listCampaigns({})).toHaveLength(2);
  });

  it('asks for a sender when the server has no number of its own', async () => {
    const rig = await startApi(backend, { phoneNumberId: null });
    await templates(rig);
    const r = await create(rig, { name: 'C', template: { name: 'order_update', language: 'en_GB' } });
    expect(r).toMatchObject({ status: 400, json: { error: 'invalid_body', issues: [{ path: 'sender' }] } });
    expect(
      await create(rig, { name: 'C', template: { name: 'order_update', language: 'en_GB' }, sender: '106540352242999' }),
    ).toMatchObject({
      status: 201,
    });
  });
});
