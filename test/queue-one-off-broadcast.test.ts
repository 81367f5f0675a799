import { NO_DISPATCHER_HERE } from '../src/app/work-signal.js';
import { describe, expect, it } from 'vitest';
import { queueOneOffBroadcast, queueOneOffMessage, type OneOffContent } from '../src/app/queue-one-off-message.js';
import { DEFAULT_POLICY } from '../src/core/policy.js';
import { BACKENDS } from './store-backends.js';

const T0 = Date.UTC(2026, 0, 5, 9, 0, 0);
/** A US number whose area code is not in use: the phone metadata calls it invalid, yet a stored contact may have it. */
const UNASSIGNED = '+13595248277';
const update: OneOffContent = {
  category: 'utility',
  template: { name: 'order_update', language: 'en_US' },
  phoneNumberId: '106540352242922',
};

describe.each(BACKENDS)('queueOneOffBroadcast ($name)', (backend) => {
  it('queues the message for stored contacts by id, with no number to check, once per key', async () => {
    const store = await backend.open();
    const { ids } = await store.upsertContacts(
      [
        { phoneE164: UNASSIGNED, waId: UNASSIGNED.slice(1) },
        { phoneE164: '+447911123456', waId: '447911123456' },
      ],
      T0,
    );
    const [a = -1, b = -1] = ids;
    expect(
      await queueOneOffMessage(store, { ...update, to: UNASSIGNED, idempotencyKey: 'x' }, DEFAULT_POLICY, T0, NO_DISPATCHER_HERE),
    ).toEqual({
      ok: false,
      problem: 'invalid_phone',
    });
    expect(await queueOneOffBroadcast(store, [{ contactId: a, idempotencyKey: 'order-a' }], update, T0, NO_DISPATCHER_HERE)).toEqual({
      ok: true,
      queued: 1,
    });
    expect(
      await queueOneOffBroadcast(
        store,
        [
          { contactId: a, idempotencyKey: 'order-a' },
          { contactId: b, idempotencyKey: 'order-b' },
        ],
        update,
        T0,
        NO_DISPATCHER_HERE,
      ),
    ).toEqual({ ok: true, queued: 1 });
    const rows = await store.claimDue({ owner: 't', now: T0, leaseMs: 60_000, limit: 10 });
    expect(rows.map((r) => [r.contactId, r.idempotencyKey])).toEqual([
      [a, 'order-a'],
      [b, 'order-b'],
    ]);
    expect(rows[0]).toMatchObject({
      campaignId: null,
      category: 'utility',
      nextAttemptAt: T0,
      intent: { phoneNumberId: update.phoneNumberId, template: update.template },
    });
  });

  it('refuses what a one-off message cannot be, storing nothing', async () => {
    const store = await backend.open();
    const [contactId = -1] = (await store.upsertContacts([{ phoneE164: '+447911123456', waId: '447911123456' }], T0)).ids;
    const one = [{ contactId, idempotencyKey: 'k' }];
    expect(await queueOneOffBroadcast(store, one, { ...update, template: undefined }, T0, NO_DISPATCHER_HERE)).toEqual({
      ok: false,
      problem: 'template_or_text',
    });
    expect(await queueOneOffBroadcast(store, one, { ...update, template: undefined, text: 'hi' }, T0, NO_DISPATCHER_HERE)).toEqual({
      ok: false,
      problem: 'text_needs_service',
    });
    expect(await queueOneOffBroadcast(store, one, { ...update, category: 'service' }, T0, NO_DISPATCHER_HERE)).toEqual({
      ok: false,
      problem: 'template_not_service',
    });
    expect(await store.claimDue({ owner: 't', now: T0, leaseMs: 60_000, limit: 10 })).toEqual([]);
  });
});
