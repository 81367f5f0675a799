import { applyPhoneQuality } from '../src/app/apply-account-signals.js';
import { applyContactEvents } from '../src/app/update-contact-state.js';
import { DEFAULT_POLICY } from '../src/core/policy.js';
import { DAY, HOUR, MINUTE, type Millis } from '../src/core/time.js';
import type { OutboxRow, Store } from '../src/ports/store.js';

/** What happens to one seeded recipient. */
export type Fate = 'delivered' | 'read' | 'retry_delivered' | 'skipped' | 'held' | 'pending_retry' | { failed: number };

export interface SeededWorld {
  senderId: number;
  spring: { campaignId: number; templateId: number };
  flash: { campaignId: number; templateId: number };
  /** The contact that wrote in (window open once the webhook is applied). */
  replier: { contactId: number; waId: string; phone: string; name: string };
}

export const PAUSE_REASON = 'Template flash_deal (en) quality fell to RED: recipients are blocking or reporting it';

const repeat = (n: number, fate: Fate): Fate[] => Array.from({ length: n }, () => fate);
const SPRING: Fate[] = [
  'read',
  ...repeat(19, 'delivered'),
  ...repeat(9, 'read'),
  ...repeat(4, 'retry_delivered'),
  { failed: 131026 },
  ...repeat(2, 'skipped'),
  ...repeat(2, 'held'),
  'pending_retry',
];
const FLASH: Fate[] = [...repeat(10, 'delivered'), ...repeat(8, { failed: 132015 }), ...repeat(2, { failed: 131026 })];

/**
 * Two campaigns through the store's own transitions: "Spring sale" (running, a healthy template)
 * and "Flash deal" (paused, its template failing), plus a sender whose quality dipped and recovered.
 */
export async function seedWorld(store: Store, t0: Millis, phoneNumberId: string): Promise<SeededWorld> {
  const [senderId = -1] = await store.upsertSenders(
    [
      {
        phoneNumberId,
        displayNumber: '+1 555-0100',
        qualityRating: 'GREEN',
        throughputMps: 80,
        messagingLimitTier: 'TIER_1K',
        state: 'ok',
        stateReason: null,
        stateUntil: null,
      },
    ],
    t0 - 10 * DAY,
  );
  const [springT = -1, flashT = -1] = await store.upsertTemplates(
    [
      { name: 'spring_sale', language: 'en', category: 'marketing', status: 'approved', quality: 'GREEN', pausedUntil: null },
      { name: 'flash_deal', language: 'en', category: 'marketing', status: 'approved', quality: 'RED', pausedUntil: null },
    ],
    t0 - 10 * DAY,
  );
  const quality = (event: string, at: Millis) =>
    applyPhoneQuality(
      store,
      {
        kind: 'phone_quality',
        source: { wabaId: 'waba', phoneNumberId },
        path: 'entry[0]',
        at,
        displayPhoneNumber: null,
        event,
        currentLimit: null,
        oldLimit: null,
        maxDailyConversations: null,
      },
      at,
      () => undefined,
    );
  await quality('FLAGGED', t0 - 3 * DAY);
  await quality('UNFLAGGED', t0 - 2 * DAY);

  const replier = { waId: '447911123456', phone: '+447911123456', name: 'Ada "<b>" Lovelace' };
  const contacts = [
    { waId: replier.waId, phoneE164: replier.phone, name: replier.name },
    ...Array.from({ length: SPRING.length + FLASH.length - 1 }, (_, i) => ({
      waId: `1555010${String(i).padStart(4, '0')}`,
      name: `Customer ${i + 1}`,
    })),
  ];
  const { ids } = await store.upsertContacts(contacts, t0 - 5 * DAY);
  const consentAt = t0 - 5 * DAY;
  await store.setConsent(
    ids[0] ?? -1,
    { category: 'marketing', status: 'granted', source: 'web form', evidence: 'signup page', at: consentAt },
    consentAt,
  );
  await applyContactEvents(
    store,
    ids[0] ?? -1,
    [
      {
        type: 'consent',
        id: 'seed-consent',
        at: consentAt,
        category: 'marketing',
        status: 'granted',
        source: 'web form',
        evidence: 'signup page',
      },
    ],
    DEFAULT_POLICY,
    consentAt,
    () => undefined,
  );
  const make = (name: string, templateId: number) =>
    store.createCampaign({ name, templateId, senderId, segment: {}, scheduledAt: null, policyPreset: 'meta', status: 'running' }, t0 - DAY);
  const spring = { campaignId: await make('Spring sale', springT), templateId: springT };
  const flash = { campaignId: await make('Flash deal', flashT), templateId: flashT };
  const rows = (campaignId: number, contactIds: number[]) =>
    contactIds.map((contactId) => ({
      campaignId,
      contactId,
      senderId,
      category: 'marketing' as const,
      intent: { template: { name: 'x', language: 'en' } },
      idempotencyKey: null,
      nextAttemptAt: t0 - DAY,
    }));
  await store.insertOutbox(
    [...rows(spring.campaignId, ids.slice(0, SPRING.length)), ...rows(flash.campaignId, ids.slice(SPRING.length))],
    t0 - DAY,
  );
  const claimed = await store.claimDue({ owner: 'seed', now: t0 - DAY, leaseMs: HOUR, limit: 1000 });
  const fateOf = new Map<number, Fate>();
  for (const row of claimed)
    fateOf.set(
      row.id,
      (row.campaignId === spring.campaignId ? SPRING : FLASH)[
        ids.indexOf(row.contactId) - (row.campaignId === spring.campaignId ? 0 : SPRING.length)
      ] ?? 'delivered',
    );
  for (const row of claimed) await settle(store, row, fateOf.get(row.id) ?? 'delivered', t0 - DAY);
  // Retries that fell due are sent again and delivered.
  for (const row of await store.claimDue({ owner: 'seed', now: t0 - DAY + 2 * HOUR, leaseMs: HOUR, limit: 1000 })) {
    await store.recordIntent(row.id, 'seed', t0 - DAY + 2 * HOUR);
    await store.recordAccepted(row.id, 'seed', `wamid.${row.id}.b`, t0 - DAY + 2 * HOUR);
    await store.recordDelivery({ wamid: `wamid.${row.id}.b`, outboxId: row.id }, 'delivered', null, t0 - DAY + 2 * HOUR + MINUTE);
  }
  await store.setCampaignStatus(flash.campaignId, 'paused', PAUSE_REASON, t0 - HOUR);
  return { senderId, spring, flash, replier: { ...replier, contactId: ids[0] ?? -1 } };
}

async function settle(store: Store, row: OutboxRow, fate: Fate, at: Millis): Promise<void> {
  const wamid = `wamid.${row.id}`;
  const send = async () => {
    await store.recordIntent(row.id, 'seed', at);
    await store.recordAccepted(row.id, 'seed', wamid, at);
  };
  if (fate === 'skipped') return void (await store.complete(row.id, 'seed', 'skipped', at));
  if (fate === 'held')
    return void (await store.reschedule(row.id, 'seed', { status: 'held', until: null, capAttempt: false, errorCode: 130472 }, at));
  await send();
  if (typeof fate === 'object') {
    await store.appendMessageEvent(
      { wamid, status: 'failed', at: at + MINUTE, errorCode: fate.failed, inboxId: null, outboxId: row.id },
      at,
    );
    await store.recordDelivery({ wamid, outboxId: row.id }, 'failed', fate.failed, at + MINUTE);
    return;
  }
  if (fate === 'retry_delivered' || fate === 'pending_retry') {
    await store.recordDelivery({ wamid, outboxId: row.id }, 'failed', 131049, at + MINUTE);
    await store.requeue(
      row.id,
      { status: 'queued', until: fate === 'retry_delivered' ? at + HOUR : at + 3 * DAY, capAttempt: true, errorCode: 131049 },
      at + MINUTE,
    );
    return;
  }
  await store.appendMessageEvent({ wamid, status: 'delivered', at: at + MINUTE, errorCode: null, inboxId: null, outboxId: row.id }, at);
  await store.recordDelivery({ wamid, outboxId: row.id }, 'delivered', null, at + MINUTE);
  if (fate === 'read') await store.recordDelivery({ wamid, outboxId: row.id }, 'read', null, at + 2 * MINUTE);
}
