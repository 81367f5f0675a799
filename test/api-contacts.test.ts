import { describe, expect, it } from 'vitest';
import { importContactRecords } from '../src/app/import-contact-records.js';
import { applyContactEvents } from '../src/app/update-contact-state.js';
import { DEFAULT_POLICY } from '../src/core/policy.js';
import { HOUR, iso, MINUTE } from '../src/core/time.js';
import { body, startApi, T0, type ApiRig } from './api-harness.js';
import { BACKENDS } from './store-backends.js';

interface Page {
  items: Array<{ id: number; phoneE164: string }>;
  next: string | null;
}
interface Explain {
  contact: string;
  categories: Record<string, { kind: string; reason: string; until: string | null; explanation: string }>;
}

async function seedContacts(rig: ApiRig, count: number): Promise<number[]> {
  const records = Array.from({ length: count }, (_, i) => ({
    phoneE164: `+4477009001${String(i).padStart(2, '0')}`,
    name: `C${i}`,
    tags: ['vip'],
    attributes: { city: 'Leeds' },
    consent: { marketing: true, utility: true },
  }));
  return (await importContactRecords(rig.store, records, 'test-import', DEFAULT_POLICY, T0 - HOUR)).ids;
}

describe.each(BACKENDS)('REST API: contacts ($name)', (backend) => {
  it('pages through contacts with a cursor: two pages, no overlap, stable order, null cursor at the end', async () => {
    const rig = await startApi(backend);
    const ids = await seedContacts(rig, 7);
    const first = await rig.call('GET', '/api/v1/contacts?limit=4');
    expect(first.status).toBe(200);
    const p1 = body<Page>(first);
    expect(p1.items.map((c) => c.id)).toEqual(ids.slice(0, 4));
    expect(p1.next).toBe(String(ids[3]));
    const p2 = body<Page>(await rig.call('GET', `/api/v1/contacts?limit=4&after=${p1.next ?? ''}`));
    expect(p2.items.map((c) => c.id)).toEqual(ids.slice(4));
    expect(p2.next).toBeNull();
    expect(new Set([...p1.items, ...p2.items].map((c) => c.id)).size).toBe(7);
    // The same request gives the same page.
    expect(body<Page>(await rig.call('GET', '/api/v1/contacts?limit=4'))).toEqual(p1);
    // An exact fit still ends with a null cursor.
    expect(body<Page>(await rig.call('GET', '/api/v1/contacts?limit=7')).next).toBeNull();
  });

  it('names the bad query parameter', async () => {
    const rig = await startApi(backend);
    const bad = await rig.call('GET', '/api/v1/contacts?limit=0&after=abc');
    expect(bad.status).toBe(400);
    expect(bad.json).toMatchObject({ error: 'invalid_query' });
    expect(
      body<{ issues: Array<{ path: string }> }>(bad)
        .issues.map((i) => i.path)
        .sort(),
    ).toEqual(['after', 'limit']);
    expect(await rig.call('GET', '/api/v1/contacts/abc')).toMatchObject({
      status: 400,
      json: { error: 'invalid_params', issues: [{ path: 'id' }] },
    });
  });

  it('shows one contact with its consent, and 404 for an unknown id', async () => {
    const rig = await startApi(backend);
    const [id] = await seedContacts(rig, 1);
    const one = await rig.call('GET', `/api/v1/contacts/${id}`);
    expect(one.json).toMatchObject({
      id,
      phoneE164: '+447700900100',
      name: 'C0',
      tags: ['vip'],
      attributes: { city: 'Leeds' },
      createdAt: iso(T0 - HOUR),
      consent: { marketing: { status: 'granted', source: 'test-import' }, utility: { status: 'granted' } },
    });
    expect(await rig.call('GET', '/api/v1/contacts/999999')).toMatchObject({
      status: 404,
      json: { error: 'not_found', message: 'contact 999999 does not exist' },
    });
  });

  it('explains each category: kind, reason, until (ISO) and the sentence, with a masked contact', async () => {
    const rig = await startApi(backend);
    const [id = -1] = await seedContacts(rig, 1);
    await applyContactEvents(
      rig.store,
      id,
      [{ type: 'status', id: 'w1:failed', at: T0 - MINUTE, messageId: 'w1', status: 'failed', category: 'marketing', errorCode: 131049 }],
      DEFAULT_POLICY,
      T0,
      () => undefined,
    );
    const r = await rig.call('GET', `/api/v1/contacts/${id}/explain`);
    expect(r.status).toBe(200);
    const e = body<Explain>(r);
    expect(e.contact).not.toContain('447700900100');
    expect(e.categories['marketing']).toMatchObject({ kind: 'defer', reason: 'marketing_cool_off' });
    expect(Date.parse(e.categories['marketing']?.until ?? '')).toBeGreaterThanOrEqual(T0 - MINUTE + 24 * HOUR);
    expect(e.categories['utility']).toMatchObject({ kind: 'send', until: null });
    expect(Object.keys(e.categories).sort()).toEqual(['authentication', 'marketing', 'service', 'utility']);
  });

  it('records a consent change in the history and the contact state, visible in explain and the timeline', async () => {
    const rig = await startApi(backend);
    const [id] = await seedContacts(rig, 1);
    const r = await rig.call('POST', `/api/v1/contacts/${id}/consent`, {
      body: { category: 'marketing', status: 'revoked', source: 'unsubscribe-page', evidence: 'form 42' },
    });
    expect(r).toMatchObject({
      status: 200,
      json: {
        recorded: { category: 'marketing', status: 'revoked', source: 'unsubscribe-page', evidence: 'form 42', at: iso(T0) },
        current: { status: 'revoked' },
      },
    });
    expect(body<Explain>(await rig.call('GET', `/api/v1/contacts/${id}/explain`)).categories['marketing']).toMatchObject({ kind: 'skip' });
    const history = await rig.store.consentHistory(id ?? -1);
    expect(history).toHaveLength(3);
    expect(history).toContainEqual(
      expect.objectContaining({ category: 'marketing', status: 'revoked', source: 'unsubscribe-page', evidence: 'form 42', at: T0 }),
    );
    const timeline = await rig.call('GET', `/api/v1/contacts/${id}/timeline?limit=10`);
    expect(body<{ items: unknown[] }>(timeline).items[0]).toEqual({
      type: 'consent',
      at: iso(T0),
      category: 'marketing',
      status: 'revoked',
      source: 'unsubscribe-page',
    });
    expect(await rig.call('GET', '/api/v1/contacts/424242/timeline')).toMatchObject({ status: 404 });
  });

  it('records consent in each of the four categories with its source and evidence', async () => {
    const rig = await startApi(backend);
    const [id] = await seedContacts(rig, 1);
    for (const [category, status] of [
      ['marketing', 'revoked'],
      ['utility', 'revoked'],
      ['authentication', 'granted'],
      ['service', 'granted'],
    ] as const) {
      const r = await rig.call('POST', `/api/v1/contacts/${id}/consent`, {
        body: { category, status, source: `${category}-form`, evidence: `proof ${category}` },
      });
      expect(r, category).toMatchObject({
        status: 200,
        json: { recorded: { category, status, source: `${category}-form`, evidence: `proof ${category}` }, current: { status } },
      });
    }
    const one = body<{ consent: Record<string, { status: string; evidence: string | null }> }>(
      await rig.call('GET', `/api/v1/contacts/${id}`),
    );
    expect(one.consent).toMatchObject({
      marketing: { status: 'revoked', evidence: 'proof marketing' },
      utility: { status: 'revoked' },
      authentication: { status: 'granted', evidence: 'proof authentication' },
      service: { status: 'granted' },
    });
    const explain = body<Explain>(await rig.call('GET', `/api/v1/contacts/${id}/explain`));
    expect(explain.categories['utility']).toMatchObject({ kind: 'skip' });
    // An unknown field is refused by name, and nothing is recorded.
    const typo = await rig.call('POST', `/api/v1/contacts/${id}/consent`, {
      body: { category: 'utility', status: 'granted', source: 'x', evidance: 'typo' },
    });
    expect(typo).toMatchObject({
      status: 400,
      json: { error: 'invalid_body', issues: [{ path: 'evidance', message: expect.stringMatching(/unknown field/) }] },
    });
    expect(await rig.store.consentHistory(id ?? -1)).toHaveLength(6);
  });

  it('refuses an invalid consent body naming each field, and a body that is not JSON', async () => {
    const rig = await startApi(backend);
    const [id] = await seedContacts(rig, 1);
    const bad = await rig.call('POST', `/api/v1/contacts/${id}/consent`, {
      body: { category: 'promotions', status: 'granted', source: '' },
    });
    expect(bad.status).toBe(400);
    expect(bad.json).toMatchObject({ error: 'invalid_body' });
    expect(
      body<{ issues: Array<{ path: string; message: string }> }>(bad)
        .issues.map((i) => i.path)
        .sort(),
    ).toEqual(['category', 'source']);
    const notJson = await rig.call('POST', `/api/v1/contacts/${id}/consent`, { raw: '{"category": "utility",' });
    expect(notJson).toMatchObject({ status: 400, json: { error: 'invalid_json' } });
    const noBody = await rig.call('POST', `/api/v1/contacts/${id}/consent`);
    expect(noBody).toMatchObject({ status: 400, json: { error: 'invalid_body', issues: [{ path: '(root)' }] } });
    expect(
      await rig.call('POST', `/api/v1/contacts/999/consent`, { body: { category: 'utility', status: 'granted', source: 'x' } }),
    ).toMatchObject({ status: 404 });
  });
});
