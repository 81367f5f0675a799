import type { CampaignStatus, OutboxInput, Store } from '../src/ports/store.js';
import { HOUR } from '../src/core/time.js';

/** A template, a sender, a campaign and `contacts` contacts, for outbox and report tests. */
export async function seedCampaign(store: Store, now: number, contacts: number, status: CampaignStatus = 'running') {
  const [templateId = -1] = await store.upsertTemplates(
    [{ name: 'promo', language: 'en', category: 'marketing', status: 'approved', quality: null, pausedUntil: null }],
    now,
  );
  const [senderId = -1] = await store.upsertSenders(
    [
      {
        phoneNumberId: 'pn-1',
        displayNumber: '+1 555-0100',
        qualityRating: 'GREEN',
        throughputMps: 80,
        messagingLimitTier: null,
        state: 'ok',
        stateReason: null,
        stateUntil: null,
      },
    ],
    now,
  );
  const campaignId = await store.createCampaign(
    { name: 'c', templateId, senderId, segment: {}, scheduledAt: null, policyPreset: 'meta', status },
    now,
  );
  const { ids } = await store.upsertContacts(
    Array.from({ length: contacts }, (_, i) => ({ waId: `1555000${String(i).padStart(4, '0')}` })),
    now,
  );
  const rows = (at: (index: number) => number): OutboxInput[] =>
    ids.map((contactId, index) => ({
      campaignId,
      contactId,
      senderId,
      category: 'marketing',
      // The number the seeded sender has: a worker claims only its own number's rows.
      intent: { phoneNumberId: 'pn-1', template: 'promo', language: 'en' },
      idempotencyKey: null,
      nextAttemptAt: at(index),
    }));
  return { templateId, senderId, campaignId, contactIds: ids, rows };
}

/** `seedCampaign`, with every row queued due at `now` and claimed by one worker: rows in flight, ready for answers. */
export async function seedClaimed(store: Store, now: number, contacts: number) {
  const seed = await seedCampaign(store, now, contacts);
  await store.insertOutbox(
    seed.rows(() => now),
    now,
  );
  const rows = await store.claimDue({ owner: 'w', now, leaseMs: HOUR, limit: contacts });
  return { ...seed, claimed: rows };
}
