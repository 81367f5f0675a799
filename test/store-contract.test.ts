import { describe, expect, it } from 'vitest';
import { EMPTY_CONTACT_STATE, type ContactState } from '../src/core/contact-state.js';
import { HOUR } from '../src/core/time.js';
import type { CampaignInput } from '../src/ports/store.js';
import { MIGRATIONS } from '../src/adapters/storage/migrations.js';
import { BACKENDS } from './store-backends.js';

const T0 = Date.UTC(2026, 0, 5, 9, 0, 0);

describe.each(BACKENDS)('Store contract: contacts, consent, state, catalog ($name)', (backend) => {
  it('migrates once and reports nothing left the second time', async () => {
    const place = backend.place();
    const store = place.open();
    const all = MIGRATIONS.map((m) => m.version);
    expect(await store.migrate()).toEqual({ applied: all, current: all.length });
    expect(await store.migrate()).toEqual({ applied: [], current: all.length });
    expect(store.backend).toBe(backend.name);
  });

  it('upserts contacts idempotently, matching by wa_id, business-scoped id or phone', async () => {
    const store = await backend.open();
    const first = await store.upsertContacts(
      [
        { waId: '15550001111', phoneE164: '+15550001111', name: 'Ana', attributes: { city: 'Lisbon' }, tags: ['vip'] },
        { bsuid: 'BS.123', name: 'Bo' },
        { phoneE164: '+447700900123', tags: ['uk', 'uk'] },
      ],
      T0,
    );
    expect(first).toMatchObject({ created: 3, updated: 0 });
    expect(new Set(first.ids).size).toBe(3);

    const again = await store.upsertContacts(
      [
        { phoneE164: '+15550001111', attributes: { plan: 'gold' }, tags: ['beta'] },
        { bsuid: 'BS.123', waId: '5511999990000' },
        { phoneE164: '+447700900123', tags: ['uk'] },
      ],
      T0 + 1,
    );
    expect(again).toEqual({ ids: first.ids, created: 0, updated: 3, outcomes: ['updated', 'updated', 'unchanged'] });

    const ana = await store.getContact(first.ids[0] ?? -1);
    expect(ana).toMatchObject({
      waId: '15550001111',
      name: 'Ana',
      attributes: { city: 'Lisbon', plan: 'gold' },
      tags: ['vip', 'beta'],
      createdAt: T0,
      updatedAt: T0 + 1,
    });
    expect((await store.findContact({ waId: '5511999990000' }))?.id).toBe(first.ids[1]);
    expect((await store.findContact({ phoneE164: '+447700900123' }))?.tags).toEqual(['uk']);
    expect(await store.findContact({ bsuid: 'nobody' })).toBeNull();
    const page = await store.listContacts(first.ids[0] ?? 0, 10);
    expect(page.map((c) => c.id)).toEqual(first.ids.slice(1));
  });

  it('imports in chunks, and re-importing the same contacts writes nothing', async () => {
    const store = await backend.open();
    const input = Array.from({ length: 1200 }, (_, i) => ({ waId: `1555${i}`, phoneE164: `+1555${i}`, tags: ['a'] }));
    const first = await store.upsertContacts(input, T0);
    expect(first.created).toBe(1200);
    expect(new Set(first.ids).size).toBe(1200);
    const again = await store.upsertContacts([...input].reverse(), T0 + 1);
    expect(again).toEqual({ ids: [...first.ids].reverse(), created: 0, updated: 1200, outcomes: Array(1200).fill('unchanged') });
    expect(await store.getContact(first.ids[700] ?? -1)).toMatchObject({ waId: '1555700', updatedAt: T0 });
  });

  it('merges a contact listed twice in one batch and names an input without any key', async () => {
    const store = await backend.open();
    const result = await store.upsertContacts([{ waId: '1555' }, { waId: '1555', name: 'Same' }, { waId: '1555' }], T0);
    expect(result).toMatchObject({ created: 1, updated: 2, outcomes: ['created', 'updated', 'unchanged'] });
    expect(result.ids[0]).toBe(result.ids[1]);
    await expect(store.upsertContacts([{ waId: '1' }, { name: 'no key' }], T0)).rejects.toMatchObject({
      name: 'StoreError',
      code: 'constraint',
      message: expect.stringContaining('contacts[1] needs waId, bsuid or phoneE164'),
    });
    // The failed batch rolled back as a whole.
    expect(await store.findContact({ waId: '1' })).toBeNull();
  });

  it('keeps consent history append-only while an older record never overrides the current value', async () => {
    const store = await backend.open();
    const [id = -1] = (await store.upsertContacts([{ waId: '1' }], T0)).ids;
    await store.setConsent(id, { category: 'marketing', status: 'granted', source: 'import', evidence: 'form-7', at: T0 }, T0);
    const revoked = await store.setConsent(
      id,
      { category: 'marketing', status: 'revoked', source: 'keyword', evidence: 'STOP', at: T0 + HOUR },
      T0 + HOUR,
    );
    expect(revoked).toEqual({
      contactId: id,
      category: 'marketing',
      status: 'revoked',
      source: 'keyword',
      evidence: 'STOP',
      at: T0 + HOUR,
    });
    // Arrives late, happened earlier: history gets it, current stays revoked.
    const late = await store.setConsent(
      id,
      { category: 'marketing', status: 'granted', source: 'crm', evidence: null, at: T0 + 1 },
      T0 + 2 * HOUR,
    );
    expect(late.status).toBe('revoked');
    await store.setConsent(id, { category: 'utility', status: 'granted', source: 'import', evidence: null, at: T0 }, T0);

    const current = await store.getConsent(id);
    expect(current.marketing?.status).toBe('revoked');
    expect(current.utility?.status).toBe('granted');
    expect(current.service).toBeUndefined();
    const history = await store.consentHistory(id);
    expect(history.map((h) => [h.category, h.status, h.at])).toEqual([
      ['marketing', 'granted', T0],
      ['utility', 'granted', T0],
      ['marketing', 'granted', T0 + 1],
      ['marketing', 'revoked', T0 + HOUR],
    ]);
  });

  it('sets many consent records at once as setting them one by one would', async () => {
    const store = await backend.open();
    const [a = -1, b = -1] = (await store.upsertContacts([{ waId: '1' }, { waId: '2' }], T0)).ids;
    await store.setConsent(a, { category: 'marketing', status: 'revoked', source: 'keyword', evidence: 'STOP', at: T0 + HOUR }, T0 + HOUR);
    await store.setConsents(
      [
        { contactId: a, consent: { category: 'marketing', status: 'granted', source: 'import', evidence: null, at: T0 } }, // older than current: history only
        { contactId: a, consent: { category: 'utility', status: 'granted', source: 'import', evidence: null, at: T0 } },
        { contactId: b, consent: { category: 'marketing', status: 'granted', source: 'import', evidence: null, at: T0 } },
        { contactId: b, consent: { category: 'marketing', status: 'revoked', source: 'crm', evidence: 'call', at: T0 } }, // same time, later: wins
        { contactId: b, consent: { category: 'utility', status: 'revoked', source: 'crm', evidence: null, at: T0 + 2 } },
        { contactId: b, consent: { category: 'utility', status: 'granted', source: 'crm', evidence: null, at: T0 + 1 } }, // older: history only
      ],
      T0 + 2 * HOUR,
    );
    expect(await store.getConsent(a)).toEqual({
      marketing: { contactId: a, category: 'marketing', status: 'revoked', source: 'keyword', evidence: 'STOP', at: T0 + HOUR },
      utility: { contactId: a, category: 'utility', status: 'granted', source: 'import', evidence: null, at: T0 },
    });
    expect(await store.getConsent(b)).toEqual({
      marketing: { contactId: b, category: 'marketing', status: 'revoked', source: 'crm', evidence: 'call', at: T0 },
      utility: { contactId: b, category: 'utility', status: 'revoked', source: 'crm', evidence: null, at: T0 + 2 },
    });
    expect((await store.consentHistory(b)).map((h) => [h.category, h.status, h.at])).toEqual([
      ['marketing', 'granted', T0],
      ['marketing', 'revoked', T0],
      ['utility', 'granted', T0 + 1],
      ['utility', 'revoked', T0 + 2],
    ]);
    expect(await store.consentHistory(a)).toHaveLength(3);
    await store.setConsents([], T0);
  });

  it('saves contact state with an optimistic version and refuses a stale writer', async () => {
    const store = await backend.open();
    const [id = -1] = (await store.upsertContacts([{ waId: '1' }], T0)).ids;
    expect(await store.loadContactState(id)).toBeNull();

    const cooled: ContactState = {
      ...EMPTY_CONTACT_STATE,
      marketing: { ...EMPTY_CONTACT_STATE.marketing, coolOffUntil: T0 + 24 * HOUR, consecutiveCaps: 1 },
      seen: ['evt-1'],
    };
    expect(await store.saveContactState(id, cooled, 0, T0)).toEqual({ ok: true, version: 1 });
    const loaded = await store.loadContactState(id);
    expect(loaded).toEqual({ state: cooled, version: 1 });

    // Two writers loaded version 1; the first wins, the second must reload.
    expect(await store.saveContactState(id, { ...cooled, seen: ['evt-1', 'evt-2'] }, 1, T0 + 1)).toEqual({ ok: true, version: 2 });
    expect(await store.saveContactState(id, { ...cooled, seen: ['evt-1', 'evt-3'] }, 1, T0 + 2)).toEqual({
      ok: false,
      reason: 'version_conflict',
      currentVersion: 2,
    });
    expect(await store.saveContactState(id, cooled, 0, T0 + 3)).toEqual({ ok: false, reason: 'version_conflict', currentVersion: 2 });
    expect((await store.loadContactState(id))?.state.seen).toEqual(['evt-1', 'evt-2']);
  });

  it('loads and saves many states at once, each save landing only on the version it expects', async () => {
    const store = await backend.open();
    const { ids } = await store.upsertContacts(
      Array.from({ length: 1_203 }, (_, i) => ({ waId: `4471${i}` })),
      T0,
    );
    const [a = -1, b = -1, c = -1] = ids;
    const cooled: ContactState = { ...EMPTY_CONTACT_STATE, seen: ['evt-1'] };
    await store.saveContactState(a, cooled, 0, T0);
    // Creates (expected 0) for every contact but a, which exists; a replaced on its version with two saves' worth.
    const landed = await store.saveContactStates(
      [
        { contactId: a, state: { ...cooled, seen: ['evt-1', 'evt-2'] }, expectedVersion: 1, version: 3 },
        { contactId: b, state: cooled, expectedVersion: 0, version: 1 },
        { contactId: c, state: cooled, expectedVersion: 2, version: 3 },
        ...ids.slice(3).map((id) => ({ contactId: id, state: cooled, expectedVersion: 0, version: 1 })),
      ],
      T0 + 1,
    );
    expect(landed.has(a) && landed.has(b) && !landed.has(c)).toBe(true);
    expect(landed.size).toBe(ids.length - 1);
    // A create for a contact whose state exists, and a stale version, land nowhere.
    const stale = await store.saveContactStates(
      [
        { contactId: b, state: { ...cooled, seen: [] }, expectedVersion: 0, version: 1 },
        { contactId: a, state: { ...cooled, seen: [] }, expectedVersion: 1, version: 2 },
      ],
      T0 + 2,
    );
    expect(stale.size).toBe(0);
    const loaded = await store.loadContactStates(ids);
    expect(loaded.get(a)).toEqual({ state: { ...cooled, seen: ['evt-1', 'evt-2'] }, version: 3 });
    expect(loaded.get(b)).toEqual({ state: cooled, version: 1 });
    expect(loaded.has(c)).toBe(false);
    expect(loaded.size).toBe(ids.length - 1);
    expect(await store.loadContactState(a)).toEqual(loaded.get(a));
  });

  it('reads contacts with their stored states by ids, a contact without events having none', async () => {
    const store = await backend.open();
    const { ids } = await store.upsertContacts(
      Array.from({ length: 1_205 }, (_, i) => ({ waId: `4470${i}`, tags: [`t${i % 3}`] })),
      T0,
    );
    const [, b = -1] = ids;
    const cooled: ContactState = {
      ...EMPTY_CONTACT_STATE,
      marketing: { ...EMPTY_CONTACT_STATE.marketing, coolOffUntil: T0 + HOUR, consecutiveCaps: 1 },
    };
    await store.saveContactState(b, cooled, 0, T0);

    // Ids repeat and run past one read's chunk; an id with no contact is left out.
    const wanted = [...ids.slice().reverse(), b, 999_999_999];
    const byIds = await store.getContactsWithState(wanted);
    expect(byIds.map((k) => k.contact.id)).toEqual([...ids].sort((x, y) => x - y));
    expect(byIds.find((k) => k.contact.id === b)?.state).toEqual({ state: cooled, version: 1 });
    expect(byIds.find((k) => k.contact.id === b)?.contact).toEqual(await store.getContact(b));
    expect(byIds.filter((k) => k.state !== null)).toHaveLength(1);
    expect(await store.getContactsWithState([])).toEqual([]);
  });

  it('upserts templates and senders by their natural keys and updates sender state', async () => {
    const store = await backend.open();
    const template = {
      name: 'promo',
      language: 'en_US',
      category: 'marketing',
      status: 'approved',
      quality: 'GREEN',
      pausedUntil: null,
    } as const;
    const [tid] = await store.upsertTemplates([template], T0);
    const [tid2] = await store.upsertTemplates([{ ...template, status: 'paused', pausedUntil: T0 + 3 * HOUR }], T0 + 1);
    expect(tid2).toBe(tid);
    expect(await store.getTemplate('promo', 'en_US')).toEqual({
      ...template,
      id: tid,
      status: 'paused',
      pausedUntil: T0 + 3 * HOUR,
      updatedAt: T0 + 1,
      // Registered, never synced from Meta.
      metaId: null,
      subCategory: null,
      parameterFormat: null,
      components: null,
      sendTtlSeconds: null,
      syncedAt: null,
    });
    expect(await store.getTemplate('promo', 'pt_BR')).toBeNull();

    const sender = {
      phoneNumberId: '1099',
      displayNumber: '+1 555-0100',
      qualityRating: 'GREEN',
      throughputMps: 80,
      messagingLimitTier: 'TIER_1K',
      state: 'ok',
      stateReason: null,
      stateUntil: null,
    } as const;
    const [sid] = await store.upsertSenders([sender], T0);
    expect(await store.upsertSenders([{ ...sender, messagingLimitTier: 'TIER_10K' }], T0 + 1)).toEqual([sid]);
    expect(await store.setSenderState('1099', 'throttled', '130429', T0 + 60_000, T0 + 2)).toBe(true);
    expect(await store.setSenderState('nope', 'stopped', 'x', null, T0)).toBe(false);
    const unread = {
      businessAccountId: null,
      portfolioId: null,
      verifiedName: null,
      metaStatus: null,
      nameStatus: null,
      throughputLevel: null,
      syncedAt: null,
    };
    expect(await store.getSender('1099')).toEqual({
      ...sender,
      ...unread,
      id: sid,
      messagingLimitTier: 'TIER_10K',
      state: 'throttled',
      stateReason: '130429',
      stateUntil: T0 + 60_000,
      updatedAt: T0 + 2,
    });
    // What Meta says of the number is kept beside it; a later upsert of its health leaves it alone.
    const profile = {
      businessAccountId: '102290129340398',
      portfolioId: 'acme',
      verifiedName: 'Shop "Ö"',
      metaStatus: 'CONNECTED',
      nameStatus: 'APPROVED',
      throughputLevel: 'STANDARD',
      syncedAt: T0 + 3,
    };
    expect(await store.setSenderProfile('1099', profile)).toBe(true);
    expect(await store.setSenderProfile('nope', profile)).toBe(false);
    await store.upsertSenders([{ ...sender, qualityRating: 'YELLOW' }], T0 + 4);
    expect(await store.getSender('1099')).toMatchObject({ ...profile, qualityRating: 'YELLOW' });
    expect((await store.listSenders()).map((s) => s.portfolioId)).toEqual(['acme']);
  });

  it('creates campaigns with a segment definition and records pauses with their reason', async () => {
    const store = await backend.open();
    const [templateId = -1] = await store.upsertTemplates(
      [{ name: 't', language: 'en', category: 'marketing', status: 'approved', quality: null, pausedUntil: null }],
      T0,
    );
    const [senderId = -1] = await store.upsertSenders(
      [
        {
          phoneNumberId: 'p',
          displayNumber: 'd',
          qualityRating: null,
          throughputMps: 80,
          messagingLimitTier: null,
          state: 'ok',
          stateReason: null,
          stateUntil: null,
        },
      ],
      T0,
    );
    const input: CampaignInput = {
      name: 'Spring',
      templateId,
      senderId,
      segment: { all: [{ tag: 'vip' }, { not: { attr: 'city', eq: 'Paris' } }] },
      scheduledAt: T0 + HOUR,
      endsAt: T0 + 7 * 24 * HOUR,
      policyPreset: 'meta',
      status: 'scheduled',
    };
    const id = await store.createCampaign(input, T0);
    expect(await store.setCampaignStatus(id, 'paused', 'cap share 40% over 1000 sends', T0 + 5)).toBe(true);
    expect(await store.getCampaign(id)).toEqual({
      ...input,
      id,
      frequencyCap: null,
      parameters: null,
      senderPool: null,
      timing: null,
      status: 'paused',
      pauseReason: 'cap share 40% over 1000 sends',
      createdAt: T0,
      updatedAt: T0 + 5,
    });
    expect(await store.getCampaign(id + 1000)).toBeNull();
    const capped: CampaignInput = { ...input, name: 'Capped', frequencyCap: { max: 3, windowMs: 14 * 24 * HOUR } };
    const cappedId = await store.createCampaign(capped, T0);
    expect(await store.getCampaign(cappedId)).toMatchObject({ name: 'Capped', frequencyCap: { max: 3, windowMs: 14 * 24 * HOUR } });
    // A template value mapping comes back as it was given, text with any character included.
    const parameters = { 'body.1': { attribute: 'first name', fallback: 'there "friend"' }, header: { link: 'https://cdn.example/a.jpg' } };
    const mapped = await store.createCampaign({ ...input, name: 'Mapped', parameters }, T0);
    expect((await store.getCampaign(mapped))?.parameters).toEqual(parameters);
    // A sender pool comes back as it was given.
    const senderPool = { by: 'country', countries: { GB: '1099', DE: '2088' }, otherwise: null };
    const pooled = await store.createCampaign({ ...input, name: 'Pooled', senderPool }, T0);
    expect((await store.getCampaign(pooled))?.senderPool).toEqual(senderPool);
  });
});
