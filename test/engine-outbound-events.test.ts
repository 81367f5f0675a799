import { describe, expect, it } from 'vitest';
import { recordConsent } from '../src/app/record-consent.js';
import { campaignAction } from '../src/app/campaign-actions.js';
import { queueOneOffMessage } from '../src/app/queue-one-off-message.js';
import { NO_DISPATCHER_HERE } from '../src/app/work-signal.js';
import { DAY, HOUR } from '../src/core/time.js';
import type { OutboundEvent, Store } from '../src/ports/store.js';
import { BACKENDS } from './store-backends.js';
import { UTILITY, withRig } from './engine-rig.js';

const SECRET = `whsec_${Buffer.from('engine-events-test-secret-0123456').toString('base64')}`;

async function subscribe(store: Store, filter: { campaignId?: number } = {}): Promise<number> {
  const s = await store.createEventSubscription(
    {
      url: 'http://127.0.0.1:9/unused',
      secret: SECRET,
      eventTypes: ['*'],
      campaignId: filter.campaignId ?? null,
      phoneNumberId: null,
      description: null,
    },
    0,
  );
  return s.id;
}

/** Every event queued for the subscription, in the order it was queued. */
async function eventsOf(store: Store, subscriptionId: number): Promise<OutboundEvent[]> {
  const out: OutboundEvent[] = [];
  for (let afterId = 0; ;) {
    const page = await store.listEventDeliveries({ subscriptionId, afterId, limit: 500 });
    if (page.length === 0) return out;
    for (const d of page) {
      const e = await store.getOutboundEvent(d.eventId);
      if (e !== null) out.push(e);
    }
    afterId = page[page.length - 1]?.id ?? afterId;
  }
}

describe.each(BACKENDS)('events for subscribers, recorded with the changes they report ($name)', (backend) => {
  it('a campaign: started, each message accepted, delivered, read or failed once, in order per message', async () => {
    await withRig(backend, {}, async (rig) => {
      const all = await subscribe(rig.store);
      const id = await rig.createCampaign();
      const other = await subscribe(rig.store, { campaignId: id + 1000 });
      await rig.startCampaign(id);
      await rig.advance(2 * DAY);

      const events = await eventsOf(rig.store, all);
      const rows = await rig.outbox(id);
      const ofType = (type: string) => events.filter((e) => e.type === type);
      expect(ofType('campaign.started')).toHaveLength(1);
      expect(ofType('campaign.started')[0]?.data).toMatchObject({ campaignId: id, status: 'running', previous: 'draft' });

      // Exactly one accepted event per accepted send, naming the row and the wamid Meta gave it.
      const accepted = ofType('message.accepted');
      const sentRows = rows.filter((r) => r.wamid !== null);
      expect(sentRows.length).toBeGreaterThan(0);
      const acceptedIds = new Set(accepted.map((e) => e.data['messageId']));
      for (const row of sentRows) expect(acceptedIds.has(row.id)).toBe(true);
      // A message accepted, failed later and sent again is accepted once per attempt, never more.
      const byId = new Map(rows.map((r) => [r.id, r]));
      for (const id of acceptedIds) {
        const row = byId.get(id as number);
        expect(row).toBeDefined();
        expect(accepted.filter((e) => e.data['messageId'] === id).length).toBeLessThanOrEqual(row?.attempts ?? 0);
      }
      for (const e of accepted) expect(e.data['wamid']).toEqual(expect.stringMatching(/^wamid\./));
      for (const row of sentRows) {
        const mine = events.filter((e) => e.data['messageId'] === row.id && e.type.startsWith('message.'));
        const types: string[] = mine.map((e) => e.type);
        // Accepted comes before any delivery news of the same message, and each status comes once.
        const first = types.indexOf('message.accepted');
        expect(first).toBeGreaterThanOrEqual(0);
        for (const t of ['message.delivered', 'message.read']) {
          expect(types.filter((x) => x === t).length).toBeLessThanOrEqual(row.attempts);
          if (types.includes(t)) expect(types.indexOf(t)).toBeGreaterThan(first);
        }
        if (row.outcome === 'read') expect(types).toContain('message.read');
        if (row.outcome === 'delivered') expect(types).toContain('message.delivered');
        expect(mine.every((e) => e.contactId === row.contactId && e.campaignId === id)).toBe(true);
      }
      // A message that ended failed says so once, with the code, its class and the catalogue's words.
      for (const row of rows.filter((r) => r.outcome === 'failed')) {
        const failed = events.filter((e) => e.type === 'message.failed' && e.data['messageId'] === row.id);
        expect(failed).toHaveLength(1);
        expect(failed[0]?.data['error']).toMatchObject({ code: row.lastErrorCode, class: expect.any(String) });
      }
      // Caps (131049) put the message back in line: a deferral with when and why, never a failure.
      const retried = ofType('message.deferred').filter((e) => e.data['reason'] === 'retry');
      for (const e of retried) expect(e.data['until']).toEqual(expect.any(String));
      const capped = retried.filter((e) => (e.data['error'] as { code?: number } | null)?.code === 131049);
      expect(capped.length).toBeGreaterThan(0);
      expect(capped.every((e) => (e.data['error'] as { class: string }).class === 'per_user_marketing_cap')).toBe(true);

      // Per contact, events were queued in the order they happened to that contact.
      const byContact = new Map<number, OutboundEvent[]>();
      for (const e of events) if (e.contactId !== null) byContact.set(e.contactId, [...(byContact.get(e.contactId) ?? []), e]);
      for (const list of byContact.values()) {
        const ids = list.map((e) => e.id);
        expect(ids).toEqual([...ids].sort((a, b) => a - b));
      }
      // A subscription to another campaign hears nothing of this one.
      expect((await eventsOf(rig.store, other)).filter((e) => e.campaignId === id)).toEqual([]);
    });
  });

  it('operator actions and consent: paused, resumed, cancelled, consent changed — and nothing for a change that changed nothing', async () => {
    await withRig(backend, {}, async (rig) => {
      const sub = await subscribe(rig.store);
      const id = await rig.createCampaign();
      await rig.startCampaign(id);
      const now = rig.clock.now();
      await campaignAction(rig.store, id, 'pause', now, NO_DISPATCHER_HERE, 'checking the audience');
      await campaignAction(rig.store, id, 'resume', now + 1, NO_DISPATCHER_HERE);
      await campaignAction(rig.store, id, 'cancel', now + 2, NO_DISPATCHER_HERE);
      const contactId = rig.contactIds[3] ?? 0;
      const change = { category: 'marketing' as const, status: 'revoked' as const, source: 'crm', evidence: 'unsubscribe link' };
      await recordConsent(rig.store, contactId, change, rig.policy, now + 3);
      await recordConsent(rig.store, contactId, change, rig.policy, now + 4); // the same again: no change
      await rig.advance(HOUR);

      const events = await eventsOf(rig.store, sub);
      const campaign = events.filter((e) => e.type.startsWith('campaign.')).map((e) => [e.type, e.data['reason']]);
      expect(campaign).toEqual([
        ['campaign.started', null],
        ['campaign.paused', 'checking the audience'],
        ['campaign.resumed', null],
        ['campaign.cancelled', null],
      ]);
      const consent = events.filter((e) => e.type === 'contact.consent_changed');
      expect(consent).toHaveLength(1);
      expect(consent[0]).toMatchObject({
        contactId,
        data: { contactId, category: 'marketing', status: 'revoked', previous: 'granted', source: 'crm', evidence: 'unsubscribe link' },
      });
    });
  });

  it("a one-off message's events carry Pacer's message id and the caller's own reference", async () => {
    await withRig(backend, {}, async (rig) => {
      const sub = await subscribe(rig.store);
      const user = rig.sim.users[7];
      if (user === undefined) throw new Error('the simulator has no user 7');
      const queued = await queueOneOffMessage(
        rig.store,
        {
          to: user.phone,
          category: 'utility',
          idempotencyKey: 'order-4711-shipped',
          reference: 'order-4711',
          template: { name: UTILITY, language: 'en_US' },
          phoneNumberId: rig.phoneNumberId,
        },
        rig.policy,
        rig.clock.now(),
        rig.engine.signal,
      );
      if (!queued.ok) throw new Error(`not queued: ${queued.problem}`);
      await rig.advance(HOUR);
      const mine = (await eventsOf(rig.store, sub)).filter((e) => e.type.startsWith('message.'));
      expect(mine.map((e) => e.type)).toContain('message.accepted');
      for (const e of mine) {
        expect(e.data).toMatchObject({ messageId: queued.messageId, reference: 'order-4711', category: 'utility' });
        expect(e.data['template']).toEqual({ name: UTILITY, language: 'en_US' });
      }
    });
  });

  it('with no subscription nothing is kept', async () => {
    await withRig(backend, {}, async (rig) => {
      const id = await rig.createCampaign();
      await rig.startCampaign(id);
      await rig.advance(HOUR);
      const sub = await subscribe(rig.store);
      expect(await eventsOf(rig.store, sub)).toEqual([]);
    });
  });
});
