import { describe, expect, it } from 'vitest';
import { iso } from '../src/core/time.js';
import { createApiToken } from '../src/app/api-tokens.js';
import { body, startApi, T0, type ApiRig } from './api-harness.js';
import { BACKENDS } from './store-backends.js';

interface Detail {
  id: number;
  waId: string | null;
  bsuid: string | null;
  phoneE164: string | null;
  name: string | null;
  attributes: Record<string, unknown>;
  tags: string[];
  updatedAt: string;
  consent: Record<string, { status: string; source: string; evidence: string | null; at: string }>;
}
interface Refusal {
  error: string;
  message: string;
  issues: Array<{ path: string; message: string }>;
}

const paths = (r: { json: unknown }): string[] =>
  body<Refusal>(r as never)
    .issues.map((i) => i.path)
    .sort();

const FULL = {
  phone: '+44 7911 123456',
  name: ' Ada Lovelace ',
  attributes: { city: 'Leeds', plan: { tier: 'gold', seats: 3 } },
  tags: ['vip', ' vip ', 'beta', ''],
  consent: {
    marketing: { status: 'granted', source: 'checkout-form', evidence: 'order 1001' },
    utility: { status: 'granted', source: 'checkout-form' },
    authentication: { status: 'granted', source: 'signup', evidence: 'otp screen v2' },
    service: { status: 'revoked', source: 'support-desk', evidence: 'ticket 77' },
  },
};

async function upsert(rig: ApiRig, payload: unknown, query = '') {
  return rig.call('POST', `/api/v1/contacts${query}`, { body: payload });
}

describe.each(BACKENDS)('REST API: upsert one contact ($name)', (backend) => {
  it('creates a contact (201) with name, attributes, tags and consent in all four categories, with source and evidence', async () => {
    const rig = await startApi(backend);
    const r = await upsert(rig, FULL);
    expect(r.status).toBe(201);
    const c = body<Detail>(r);
    expect(c).toMatchObject({
      waId: '447911123456',
      phoneE164: '+447911123456',
      bsuid: null,
      name: 'Ada Lovelace',
      attributes: { city: 'Leeds', plan: { tier: 'gold', seats: 3 } },
      tags: ['vip', 'beta'],
      consent: {
        marketing: { status: 'granted', source: 'checkout-form', evidence: 'order 1001', at: iso(T0) },
        utility: { status: 'granted', source: 'checkout-form', evidence: null },
        authentication: { status: 'granted', source: 'signup', evidence: 'otp screen v2' },
        service: { status: 'revoked', source: 'support-desk', evidence: 'ticket 77' },
      },
    });
    expect(body<Detail>(await rig.call('GET', `/api/v1/contacts/${c.id}`))).toEqual(c);
    // The consent reached the contact's state: explain sends marketing, skips nothing it granted.
    const explain = body<{ categories: Record<string, { kind: string }> }>(await rig.call('GET', `/api/v1/contacts/${c.id}/explain`));
    expect(explain.categories['marketing']?.kind).toBe('send');
    expect(await rig.store.consentHistory(c.id)).toHaveLength(4);
  });

  it('answers 200 for a known contact: the same body changes nothing, a new tag or attribute is merged', async () => {
    const rig = await startApi(backend);
    const created = body<Detail>(await upsert(rig, FULL));
    rig.clock.t += 1_000;
    const again = await upsert(rig, FULL);
    expect(again.status).toBe(200);
    expect(body<Detail>(again)).toEqual(created);
    expect(await rig.store.consentHistory(created.id)).toHaveLength(4);
    // Matched by the wa_id a differently written number gives; attributes merged, tags added, name kept.
    const more = await upsert(rig, {
      phone: '00447911123456',
      attributes: { city: 'York' },
      tags: ['new'],
      consent: { marketing: { status: 'revoked', source: 'sms-stop' } },
    });
    expect(more.status).toBe(200);
    expect(body<Detail>(more)).toMatchObject({
      id: created.id,
      name: 'Ada Lovelace',
      attributes: { city: 'York', plan: { tier: 'gold', seats: 3 } },
      tags: ['vip', 'beta', 'new'],
      updatedAt: iso(T0 + 1_000),
      consent: { marketing: { status: 'revoked', source: 'sms-stop', evidence: null }, utility: { status: 'granted' } },
    });
    expect(await rig.store.consentHistory(created.id)).toHaveLength(5);
  });

  it('creates by wa_id or business-scoped id alone, and links a phone to a contact known by its business-scoped id', async () => {
    const rig = await startApi(backend);
    const byWaId = await upsert(rig, { waId: '14155550123', name: 'W' });
    expect(byWaId.status).toBe(201);
    expect(body<Detail>(byWaId)).toMatchObject({ waId: '14155550123', phoneE164: null, bsuid: null });
    const byUser = await upsert(rig, { bsuid: 'US.13491208655302741918', name: 'U' });
    expect(body<Detail>(byUser)).toMatchObject({ waId: null, phoneE164: null, bsuid: 'US.13491208655302741918' });
    const linked = await upsert(rig, { bsuid: 'US.13491208655302741918', phone: '+1 202 555 0147' });
    expect(linked.status).toBe(200);
    expect(body<Detail>(linked)).toMatchObject({
      id: body<Detail>(byUser).id,
      bsuid: 'US.13491208655302741918',
      phoneE164: '+12025550147',
      waId: '12025550147',
      name: 'U',
    });
  });

  it('reads a national number in the default_country given, and says where to give one', async () => {
    const rig = await startApi(backend);
    const without = await upsert(rig, { phone: '07911 123456' });
    expect(without.status).toBe(400);
    expect(body<Refusal>(without).issues).toEqual([
      { path: 'phone', message: expect.stringMatching(/no country code.*default_country parameter/) },
    ]);
    const gb = await upsert(rig, { phone: '07911 123456' }, '?default_country=gb');
    expect(gb.status).toBe(201);
    expect(body<Detail>(gb).phoneE164).toBe('+447911123456');
    expect(await upsert(rig, { phone: '07911 123456' }, '?default_country=XX')).toMatchObject({
      status: 400,
      json: { error: 'invalid_query', issues: [{ path: 'default_country' }] },
    });
  });

  it('refuses a bad body naming each field, the phone masked, and writes nothing', async () => {
    const rig = await startApi(backend);
    const bad = await upsert(rig, {
      phone: '+44 7911 1234',
      waId: '+447911123456',
      bsuid: 'not-a-user-id',
      nickname: 'x',
      tags: 'vip',
      consent: { promotions: { status: 'granted', source: 'x' }, marketing: { status: 'yes', source: '', evidance: 'typo' } },
    });
    expect(bad.status).toBe(400);
    expect(bad.json).toMatchObject({ error: 'invalid_body' });
    expect(paths(bad)).toEqual([
      'bsuid',
      'consent.marketing.evidance',
      'consent.marketing.source',
      'consent.marketing.status',
      'consent.promotions',
      'nickname',
      'tags',
      'waId',
    ]);
    expect(body<Refusal>(bad).issues.find((i) => i.path === 'nickname')?.message).toMatch(/unknown field/);
    // A consent given as a bare word: the answer shows the shape wanted.
    const word = await upsert(rig, { phone: '+447911123456', consent: { marketing: 'yes' } });
    expect(word.status).toBe(400);
    expect(body<Refusal>(word).issues).toEqual([
      expect.objectContaining({
        path: 'consent.marketing',
        message: 'expected an object such as {"status": "granted", "source": "checkout-form"}, got "yes"',
      }),
    ]);
    // Types right, the number wrong: the import's reason, masked.
    const phone = await upsert(rig, { phone: '+44 7911 1234', name: 'N' });
    expect(phone).toMatchObject({ status: 400, json: { error: 'invalid_body', issues: [{ path: 'phone' }] } });
    expect(phone.text).not.toContain('79111234');
    expect(body<Refusal>(phone).issues[0]?.message).toMatch(/too short|wrong number of digits|not a valid number/);
    expect(await upsert(rig, { name: 'nobody' })).toMatchObject({
      status: 400,
      json: { error: 'invalid_body', issues: [{ path: '(root)', message: expect.stringMatching(/phone, waId or bsuid/) }] },
    });
    expect(await upsert(rig, { phone: '+447911123456', name: 'A\0da' })).toMatchObject({
      status: 400,
      json: { issues: [{ path: 'name', message: expect.stringMatching(/NUL/) }] },
    });
    expect(await upsert(rig, { phone: '+447911123456', attributes: { note: 'a\0b' } })).toMatchObject({
      status: 400,
      json: { issues: [{ path: 'attributes.note' }] },
    });
    expect(await upsert(rig, [{ phone: '+447911123456' }])).toMatchObject({
      status: 400,
      json: { error: 'invalid_body', issues: [{ path: '(root)' }] },
    });
    expect(await rig.call('POST', '/api/v1/contacts', { raw: '{"phone":' })).toMatchObject({
      status: 400,
      json: { error: 'invalid_json' },
    });
    expect(await rig.call('POST', '/api/v1/contacts', { raw: 'phone=1', headers: { 'content-type': 'text/plain' } })).toMatchObject({
      status: 415,
      json: { error: 'unsupported_media_type' },
    });
    expect(
      await rig.call('POST', '/api/v1/contacts', { raw: '{"phone":"+447911123456"}', headers: { 'content-type': 'application/x-ndjson' } }),
    ).toMatchObject({
      status: 415,
      json: { error: 'unsupported_media_type', message: expect.stringContaining('application/json') },
    });
    expect(await rig.store.listContacts(0, 10)).toEqual([]);
    expect(await upsert(rig, FULL, '').then((r) => r.status)).toBe(201);
    expect(await rig.call('POST', '/api/v1/contacts', { body: FULL, token: null })).toMatchObject({ status: 401 });
  });

  it('refuses with 409 identifiers that belong to two contacts, naming whose each is, and changes neither', async () => {
    const rig = await startApi(backend);
    const byPhone = body<Detail>(await upsert(rig, { phone: '+447911123456', name: 'Phone' }));
    const byUser = body<Detail>(await upsert(rig, { bsuid: 'GB.abc123', name: 'User' }));
    const r = await upsert(rig, {
      phone: '+447911123456',
      bsuid: 'GB.abc123',
      name: 'Merged?',
      tags: ['x'],
      consent: { marketing: { status: 'granted', source: 'crm' } },
    });
    expect(r.status).toBe(409);
    expect(r.json).toMatchObject({ error: 'contact_conflict' });
    const issues = body<Refusal>(r).issues;
    expect(issues.map((i) => i.path).sort()).toEqual(['bsuid', 'phone', 'waId']);
    expect(issues.find((i) => i.path === 'bsuid')?.message).toContain(`belongs to contact ${byUser.id}`);
    expect(issues.find((i) => i.path === 'phone')?.message).toContain(`belongs to contact ${byPhone.id}`);
    expect(body<Detail>(await rig.call('GET', `/api/v1/contacts/${byPhone.id}`))).toEqual(byPhone);
    expect(body<Detail>(await rig.call('GET', `/api/v1/contacts/${byUser.id}`))).toEqual(byUser);
    expect(await rig.store.consentHistory(byPhone.id)).toEqual([]);
    expect(await rig.store.consentHistory(byUser.id)).toEqual([]);
  });
});

describe.each(BACKENDS)('REST API: change one contact ($name)', (backend) => {
  it('sets the name, merges attributes (null removes one), adds and removes tags', async () => {
    const rig = await startApi(backend);
    const c = body<Detail>(
      await upsert(rig, { phone: '+447911123456', name: 'Ada', attributes: { city: 'Leeds', plan: 'gold' }, tags: ['a', 'b'] }),
    );
    rig.clock.t += 5_000;
    const r = await rig.call('PATCH', `/api/v1/contacts/${c.id}`, {
      body: { name: 'Ada L', attributes: { city: 'York', plan: null, seats: 2 }, tags: { add: ['c', ' d '], remove: ['a'] } },
    });
    expect(r.status).toBe(200);
    expect(body<Detail>(r)).toMatchObject({
      id: c.id,
      name: 'Ada L',
      attributes: { city: 'York', seats: 2 },
      tags: ['b', 'c', 'd'],
      updatedAt: iso(T0 + 5_000),
    });
    expect(body<Detail>(await rig.call('GET', `/api/v1/contacts/${c.id}`))).toEqual(body<Detail>(r));
    rig.clock.t += 5_000;
    // Nothing to change: the same contact, its time untouched.
    const same = await rig.call('PATCH', `/api/v1/contacts/${c.id}`, { body: { tags: { remove: ['zz'] } } });
    expect(body<Detail>(same).updatedAt).toBe(iso(T0 + 5_000));
    const cleared = await rig.call('PATCH', `/api/v1/contacts/${c.id}`, { body: { name: null } });
    expect(body<Detail>(cleared).name).toBeNull();
  });

  it('answers 404 for an unknown id and 400 naming the field for a bad body or id', async () => {
    const rig = await startApi(backend);
    const c = body<Detail>(await upsert(rig, { phone: '+447911123456' }));
    expect(await rig.call('PATCH', '/api/v1/contacts/999999', { body: { name: 'x' } })).toMatchObject({
      status: 404,
      json: { error: 'not_found', message: 'contact 999999 does not exist' },
    });
    expect(await rig.call('PATCH', '/api/v1/contacts/abc', { body: { name: 'x' } })).toMatchObject({
      status: 400,
      json: { error: 'invalid_params', issues: [{ path: 'id' }] },
    });
    const bad = await rig.call('PATCH', `/api/v1/contacts/${c.id}`, { body: { phone: '+1', tags: { add: 'x', drop: ['y'] }, name: 3 } });
    expect(bad.status).toBe(400);
    expect(paths(bad)).toEqual(['name', 'phone', 'tags.add', 'tags.drop']);
    expect(await rig.call('PATCH', `/api/v1/contacts/${c.id}`, { body: { attributes: { note: 'a\0b' } } })).toMatchObject({
      status: 400,
      json: { error: 'invalid_body', issues: [{ path: 'attributes.note', message: expect.stringMatching(/NUL/) }] },
    });
    expect(body<Detail>(await rig.call('GET', `/api/v1/contacts/${c.id}`))).toEqual(c);
  });
});

describe.each(BACKENDS)('REST API: contact writes, scopes and retries ($name)', (backend) => {
  it('needs a write token for the writes, a read token for the lookups', async () => {
    const rig = await startApi(backend);
    const read = (await createApiToken(rig.store, { name: 'r', scope: 'read' }, T0)).token;
    const write = (await createApiToken(rig.store, { name: 'w', scope: 'write' }, T0)).token;
    const c = body<Detail>(await rig.call('POST', '/api/v1/contacts', { token: write, body: { phone: '+447911123456' } }));
    for (const [method, url, payload] of [
      ['POST', '/api/v1/contacts', { phone: '+447911123457' }],
      ['POST', '/api/v1/contacts/bulk', [{ phone: '+447911123457' }]],
      ['PATCH', `/api/v1/contacts/${c.id}`, { name: 'x' }],
    ] as const) {
      expect(await rig.call(method, url, { token: read, body: payload }), `${method} ${url}`).toMatchObject({
        status: 403,
        json: { error: 'insufficient_scope' },
      });
    }
    expect(await rig.call('GET', '/api/v1/contacts?phone=%2B447911123456', { token: read })).toMatchObject({
      status: 200,
      json: { items: [{ id: c.id }] },
    });
    expect(await rig.store.listContacts(0, 10)).toHaveLength(1);
  });

  it('answers a retry with the same Idempotency-Key with the first answer, for one contact and for a bulk request', async () => {
    const rig = await startApi(backend);
    const key = { 'idempotency-key': 'crm-sync-0001' };
    const first = await rig.call('POST', '/api/v1/contacts', { body: { phone: '+447911123456', tags: ['a'] }, headers: key });
    expect(first.status).toBe(201);
    rig.clock.t += 1_000;
    const retry = await rig.call('POST', '/api/v1/contacts', { body: { tags: ['a'], phone: '+447911123456' }, headers: key });
    expect(retry).toMatchObject({ status: 201, headers: { 'idempotent-replayed': 'true' } });
    expect(retry.json).toEqual(first.json);
    expect(await rig.call('POST', '/api/v1/contacts', { body: { phone: '+447911123457' }, headers: key })).toMatchObject({
      status: 422,
      json: { error: 'idempotency_key_reused' },
    });
    const rows = [{ phone: '+447911123458' }, { phone: 'nope' }];
    const bulk = await rig.call('POST', '/api/v1/contacts/bulk', { body: rows, headers: { 'idempotency-key': 'bulk-1' } });
    const again = await rig.call('POST', '/api/v1/contacts/bulk', { body: rows, headers: { 'idempotency-key': 'bulk-1' } });
    expect(again).toMatchObject({ status: 200, headers: { 'idempotent-replayed': 'true' } });
    expect(again.json).toEqual(bulk.json);
    expect(await rig.store.listContacts(0, 10)).toHaveLength(2);
  });
});
