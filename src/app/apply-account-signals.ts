import type { Category } from '../core/category.js';
import type { TemplateStatus } from '../core/decision.js';
import type { EmitEvent } from '../core/outbound-event.js';
import { HOUR, type Millis } from '../core/time.js';
import type {
  AccountUpdateItem,
  BusinessCapabilityItem,
  PhoneQualityItem,
  TemplateCategoryItem,
  TemplateQualityItem,
  TemplateStatusItem,
} from '../ports/webhook-items.js';
import type { Sender, SenderHistoryStore, SenderStore, SignalStore, Template, TemplateStore } from '../ports/store.js';
import { senderHealthEvent } from './lifecycle-events.js';

/** Meta's template events, as the template status `decide` reads. */
const TEMPLATE_STATUS: Record<string, TemplateStatus> = {
  APPROVED: 'approved',
  REINSTATED: 'approved',
  UNPAUSED: 'approved',
  UNARCHIVED: 'approved',
  PAUSED: 'paused',
  DISABLED: 'disabled',
  REJECTED: 'rejected',
  DELETED: 'deleted',
  PENDING_DELETION: 'deleted',
  ARCHIVED: 'disabled',
  LOCKED: 'disabled',
  PENDING: 'pending',
  IN_APPEAL: 'pending',
  LIMIT_EXCEEDED: 'rejected',
};

/** Meta pauses a template 3 h the first time and 6 h the second. */
const PAUSE_LENGTH: Record<string, Millis> = { FIRST_PAUSE: 3 * HOUR, SECOND_PAUSE: 6 * HOUR };

const CATEGORY: Record<string, Category> = { MARKETING: 'marketing', UTILITY: 'utility', AUTHENTICATION: 'authentication' };

type SignalItem =
  TemplateStatusItem | TemplateQualityItem | TemplateCategoryItem | PhoneQualityItem | AccountUpdateItem | BusinessCapabilityItem;

/**
 * Meta delivers these signals at least once and in no set order: each is applied only if nothing
 * newer about `subject` was, and only once (a redelivery has the same fingerprint). Without an
 * event time, the time it is applied stands in.
 */
function claim(store: SignalStore, subject: string, item: SignalItem, now: Millis): Promise<boolean> {
  const { path: _where, ...said } = item; // where it sat in the body is not part of what it says
  return store.claimSignal({ subject, at: item.at ?? now, fingerprint: JSON.stringify(said) }, now);
}

/** Returns the template as it is now when the signal changed it; null when it changed nothing. */
export async function applyTemplateStatus(
  store: TemplateStore & SignalStore,
  item: TemplateStatusItem,
  now: Millis,
): Promise<Template | null> {
  if (item.name === null || item.language === null) return null;
  const status = TEMPLATE_STATUS[item.event.toUpperCase()] ?? (item.otherInfo?.title === 'UNPAUSE' ? 'approved' : undefined);
  if (status === undefined) return null; // FLAGGED and unknown events change nothing we send on
  if (!(await claim(store, `template_status ${item.name} ${item.language}`, item, now))) return null;
  const current = await store.getTemplate(item.name, item.language);
  const at = item.at ?? now;
  const pause = PAUSE_LENGTH[item.otherInfo?.title ?? ''];
  const category = current?.category ?? CATEGORY[(item.category ?? '').toUpperCase()] ?? 'marketing';
  await store.upsertTemplates(
    [
      {
        name: item.name,
        language: item.language,
        category,
        status,
        quality: current?.quality ?? null,
        pausedUntil: status === 'paused' && pause !== undefined ? at + pause : null,
      },
    ],
    now,
  );
  return store.getTemplate(item.name, item.language);
}

export async function applyTemplateQuality(
  store: TemplateStore & SignalStore,
  item: TemplateQualityItem,
  now: Millis,
): Promise<Template | null> {
  if (item.name === null || item.language === null) return null;
  const current = await store.getTemplate(item.name, item.language);
  if (current === null) return null; // a template we never registered: nothing of ours uses it
  if (!(await claim(store, `template_quality ${item.name} ${item.language}`, item, now))) return null;
  await store.upsertTemplates([{ ...current, quality: item.newScore.toUpperCase() }], now);
  return { ...current, quality: item.newScore.toUpperCase() };
}

export async function applyTemplateCategory(store: TemplateStore & SignalStore, item: TemplateCategoryItem, now: Millis): Promise<void> {
  // A notice (correct_category set) changes nothing yet; the completed change names the new category.
  if (item.name === null || item.language === null || item.correctCategory !== null) return;
  const current = await store.getTemplate(item.name, item.language);
  const category = CATEGORY[item.newCategory.toUpperCase()];
  if (current === null || category === undefined) return;
  if (!(await claim(store, `template_category ${item.name} ${item.language}`, item, now))) return;
  await store.upsertTemplates([{ ...current, category }], now);
}

/**
 * `FLAGGED`/`DOWNGRADE` mean the number's quality fell; `UNFLAGGED`/`UPGRADE` that it recovered.
 * Returns the number when its quality dropped, so its running campaigns (and no other number's)
 * pause before Meta restricts it; null otherwise.
 */
export async function applyPhoneQuality(
  store: SenderStore & SenderHistoryStore & SignalStore,
  item: PhoneQualityItem,
  now: Millis,
  emit: EmitEvent,
): Promise<Sender | null> {
  const sender = await senderOf(store, item);
  if (sender === null) return null;
  if (!(await claim(store, `phone_quality ${sender.phoneNumberId}`, item, now))) return null;
  const event = item.event.toUpperCase();
  const dropped = event === 'FLAGGED' || event === 'DOWNGRADE';
  const quality = dropped ? 'FLAGGED' : event === 'UNFLAGGED' || event === 'UPGRADE' ? 'GREEN' : sender.qualityRating;
  const throughputMps = event === 'THROUGHPUT_UPGRADE' ? 1000 : sender.throughputMps;
  const tier = item.maxDailyConversations ?? item.currentLimit ?? sender.messagingLimitTier;
  await store.upsertSenders([{ ...sender, qualityRating: quality, throughputMps, messagingLimitTier: tier }], now);
  await recordSenderChange(
    store,
    sender,
    { ...sender, qualityRating: quality, messagingLimitTier: tier },
    `phone_quality ${event}`,
    item.at ?? now,
    emit,
  );
  return dropped ? sender : null;
}

/**
 * Meta names the number of a quality update by its display number (a WABA-level webhook has no
 * phone-number id), so the sender is matched on the digits of its display number, among the
 * numbers of the account the webhook came from.
 */
async function senderOf(store: SenderStore, item: PhoneQualityItem): Promise<Sender | null> {
  if (item.source.phoneNumberId !== null) return store.getSender(item.source.phoneNumberId);
  const digits = (item.displayPhoneNumber ?? '').replace(/\D/g, '');
  if (digits === '') return null;
  return (await sendersOfAccount(store, item.source.wabaId)).find((s) => s.displayNumber.replace(/\D/g, '') === digits) ?? null;
}

/**
 * The numbers of a WhatsApp Business Account (`entry[].id`). Numbers whose account Pacer has not
 * read yet (one configured number, never synced) count as any account's, as before numbers were
 * synced; a number known to belong to another account never does.
 */
export async function sendersOfAccount(store: Pick<SenderStore, 'listSenders'>, wabaId: string): Promise<Sender[]> {
  return (await store.listSenders()).filter((s) => s.businessAccountId === null || s.businessAccountId === wabaId);
}

/** The portfolio's messaging limit, on every number of the portfolios the account's numbers are in. */
export async function applyBusinessCapability(
  store: SenderStore & SenderHistoryStore & SignalStore,
  item: BusinessCapabilityItem,
  now: Millis,
  emit: EmitEvent,
): Promise<void> {
  if (item.maxDailyConversations === null) return;
  if (!(await claim(store, `business_capability ${item.source.wabaId}`, item, now))) return;
  const all = await store.listSenders();
  const ofAccount = all.filter((s) => s.businessAccountId === null || s.businessAccountId === item.source.wabaId);
  const portfolios = new Set(ofAccount.filter((s) => s.portfolioId !== null).map((s) => s.portfolioId));
  for (const sender of all.filter((s) => ofAccount.includes(s) || portfolios.has(s.portfolioId))) {
    await store.upsertSenders([{ ...sender, messagingLimitTier: item.maxDailyConversations }], now);
    await recordSenderChange(
      store,
      sender,
      { ...sender, messagingLimitTier: item.maxDailyConversations },
      'business_capability_update',
      item.at ?? now,
      emit,
    );
  }
}

/** When the account can no longer send business-initiated messages: why, and its numbers, now stopped. */
export async function applyAccountUpdate(
  store: SenderStore & SenderHistoryStore & SignalStore,
  item: AccountUpdateItem,
  now: Millis,
  emit: EmitEvent,
): Promise<{ reason: string; senders: Sender[] } | null> {
  const event = item.event.toUpperCase();
  const blocking =
    event === 'ACCOUNT_RESTRICTION' || event === 'DISABLED_UPDATE' || event === 'ACCOUNT_DELETED' || event === 'ACCOUNT_OFFBOARDED';
  if (!blocking) return null;
  if (!(await claim(store, `account_update ${item.source.wabaId}`, item, now))) return null;
  const restriction = item.restrictions[0];
  const reason = `account_update ${event}${restriction?.type ? ` (${restriction.type})` : ''}${item.banState ? ` ban ${item.banState}` : ''}`;
  const senders = await sendersOfAccount(store, item.source.wabaId);
  for (const sender of senders) {
    const until = restriction?.expiresAt ?? null;
    const state = until === null ? 'stopped' : 'throttled';
    await store.setSenderState(sender.phoneNumberId, state, reason, until, now);
    await recordSenderChange(store, sender, { ...sender, state, stateReason: reason }, `account_update ${event}`, item.at ?? now, emit);
  }
  return { reason, senders };
}

type SenderFacts = Pick<Sender, 'qualityRating' | 'messagingLimitTier' | 'state' | 'stateReason'>;

/** Keeps the sender's history (for the dashboard's quality chart) when a signal changed something, and tells subscribers. */
async function recordSenderChange(
  store: SenderHistoryStore,
  before: Sender,
  after: SenderFacts,
  source: string,
  at: Millis,
  emit: EmitEvent,
): Promise<void> {
  const same =
    before.qualityRating === after.qualityRating &&
    before.messagingLimitTier === after.messagingLimitTier &&
    before.state === after.state &&
    before.stateReason === after.stateReason;
  if (same) return;
  await store.recordSenderChange({ senderId: before.id, at, ...after, source });
  const event = senderHealthEvent(before, before, { ...before, ...after }, source, at);
  if (event !== null) emit(event);
}
