import { describe, expect, it } from 'vitest';
import { importContactRecords } from '../src/app/import-contact-records.js';
import { queueOneOffMessage, queueOneOffMessageToContact, type OneOffContent } from '../src/app/queue-one-off-message.js';
import { DEFAULT_POLICY } from '../src/core/policy.js';
import { BACKENDS } from './store-backends.js';

const T0 = Date.UTC(2026, 0, 5, 9, 0, 0);
/** A US number whose area code is not in use: the phone metadata calls it invalid, yet a stored contact may have it. */
const UNASSIGNED = '+13595248277';
const update: OneOffContent = { category: 'utility', template: { name: 'order_update', language: 'en_US' }, idempotencyKey: 'order-1', phoneNumberId: '106540352242922' };

describe.each(BACKENDS)('queueOneOffMessageToContact ($name)', (backend) => {
  it('queues for a stored contact by id, with no number to check, once per key, and says what decide says now', async () => {
    const store = await backend.open();
    const [contactId = -1] = (await importContactRecords(store, [{ phoneE164: UNASSIGNED, name: null, tags: [], attributes: {}, consent: { utility: true } }], 'test', DEFAULT_POLICY, T0)).ids;
    expect(await queueOneOffMessage(store, { ...update, to: UNASSIGNED }, DEFAULT_POLICY, T0)).toEqual({ ok: false, problem: 'invalid_phone' });
    expect(await queueOneOffMessageToContact(store, contactId, update, DEFAULT_POLICY, T0)).toMatchObject({ ok: true, queued: true, decision: { kind: 'send' } });
    expect(await queueOneOffMessageToContact(store, contactId, update, DEFAULT_POLICY, T0)).toMatchObject({ ok: true, queued: false });
    const rows = await store.claimDue({ owner: 't', now: T0, leaseMs: 60_000, limit: 10 });
    expect(rows).toMatchObject([{ contactId, campaignId: null, category: 'utility', idempotencyKey: 'order-1', intent: { phoneNumberId: update.phoneNumberId, template: update.template } }]);
  });

  it('refuses an unknown contact and a message without a template or text, storing nothing', async () => {
    const store = await backend.open();
    const [contactId = -1] = (await store.upsertContacts([{ phoneE164: '+447911123456', waId: '447911123456' }], T0)).ids;
    expect(await queueOneOffMessageToContact(store, contactId + 1, update, DEFAULT_POLICY, T0)).toEqual({ ok: false, problem: 'unknown_contact' });
    expect(await queueOneOffMessageToContact(store, contactId, { ...update, template: undefined }, DEFAULT_POLICY, T0)).toEqual({ ok: false, problem: 'template_or_text' });
    expect(await queueOneOffMessageToContact(store, contactId, { ...update, template: undefined, text: 'hi' }, DEFAULT_POLICY, T0)).toEqual({ ok: false, problem: 'text_needs_service' });
    expect(await store.claimDue({ owner: 't', now: T0, leaseMs: 60_000, limit: 10 })).toEqual([]);
  });
});
