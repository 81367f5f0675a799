import type { Store } from '../src/ports/store.js';

export const T0 = Date.UTC(2026, 0, 5, 9, 0, 0);
export const NUMBERS = [
  { wabaId: '100200300400500', phoneNumberId: 'pn-1', displayPhoneNumber: '15550100' },
  { wabaId: '100200300400500', phoneNumberId: 'pn-2', displayPhoneNumber: '15550200' },
] as const;
export const waId = (i: number): string => `4477010${String(i).padStart(5, '0')}`;

export interface BatchWorld {
  /** Per contact i: its outbox row, its campaign's number (i even: pn-1's campaign, odd: pn-2's). */
  rows: Array<{ id: number; contactId: number; phoneNumberId: string; campaignId: number }>;
}

/**
 * Two numbers, each with a running marketing campaign, `contacts` contacts alternating between them,
 * one outbox row each, claimed by `owner` and due: the rows of a pass that mixes campaigns and numbers.
 */
export async function claimedMixedRows(store: Store, contacts: number, owner: string): Promise<BatchWorld> {
  const [templateId = -1] = await store.upsertTemplates(
    [{ name: 'promo', language: 'en', category: 'marketing', status: 'approved', quality: 'GREEN', pausedUntil: null }],
    T0,
  );
  const senderIds = await store.upsertSenders(
    NUMBERS.map((n) => ({
      phoneNumberId: n.phoneNumberId,
      displayNumber: n.displayPhoneNumber,
      qualityRating: 'GREEN' as const,
      throughputMps: 80,
      messagingLimitTier: null,
      state: 'ok' as const,
      stateReason: null,
      stateUntil: null,
    })),
    T0,
  );
  const campaignIds: number[] = [];
  for (const [k, senderId] of senderIds.entries()) {
    campaignIds.push(
      await store.createCampaign(
        { name: `c${k}`, templateId, senderId, segment: {}, scheduledAt: T0, policyPreset: 'meta', status: 'running' },
        T0,
      ),
    );
  }
  const { ids: contactIds } = await store.upsertContacts(
    Array.from({ length: contacts }, (_, i) => ({ waId: waId(i), phoneE164: `+${waId(i)}` })),
    T0,
  );
  for (const id of contactIds)
    await store.setConsent(id, { category: 'marketing', status: 'granted', source: 'test', evidence: null, at: T0 - 1000 }, T0);
  await store.insertOutbox(
    contactIds.map((contactId, i) => ({
      campaignId: campaignIds[i % 2] ?? -1,
      contactId,
      senderId: senderIds[i % 2] ?? -1,
      category: 'marketing' as const,
      intent: { phoneNumberId: NUMBERS[i % 2]!.phoneNumberId, template: { name: 'promo', language: 'en' } },
      idempotencyKey: null,
      nextAttemptAt: T0 - 1,
    })),
    T0,
  );
  const claimed = await store.claimDue({ owner, now: T0, leaseMs: 60_000, limit: contacts });
  const byContact = new Map(claimed.map((r) => [r.contactId, r.id]));
  return {
    rows: contactIds.map((contactId, i) => ({
      id: byContact.get(contactId) ?? -1,
      contactId,
      phoneNumberId: NUMBERS[i % 2]!.phoneNumberId,
      campaignId: campaignIds[i % 2] ?? -1,
    })),
  };
}
