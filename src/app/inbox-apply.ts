import type { EmitEvent, NewOutboundEvent } from '../core/outbound-event.js';
import type { Policy } from '../core/policy.js';
import { iso, type Millis } from '../core/time.js';
import type { Clock } from '../ports/clock.js';
import {
  StoreError,
  type CampaignStore,
  type ContactHistoryStore,
  type ContactStore,
  type InboxRow,
  type Savepoints,
  type Sender,
  type SenderHistoryStore,
  type SignalStore,
  type StoreErrorCode,
} from '../ports/store.js';
import type { InboundItem, WebhookItem } from '../ports/webhook-items.js';
import {
  applyAccountUpdate,
  applyBusinessCapability,
  applyPhoneQuality,
  applyTemplateCategory,
  applyTemplateQuality,
  applyTemplateStatus,
} from './apply-account-signals.js';
import { applyStatus, type StatusDeps } from './apply-status.js';
import { InboxBatch, type InboxBatchStore } from './inbox-batch.js';
import { applyUserIdChange } from './apply-user-id-change.js';
import type { EffectsApplied } from './send-effects.js';
import { pauseRunningCampaigns } from './pause-campaigns.js';
import { resolveContact } from './resolve-contact.js';
import { toContactEvents } from './to-contact-events.js';
import { applyContactEvents } from './update-contact-state.js';

/**
 * Inside the batch's transaction: the roles the payloads' items are applied with. What it takes of
 * InboxDeps is written out, as deriving it would have this module import process-inbox.ts back.
 */
export type ApplyDeps = {
  store: StatusDeps['store'] & ContactStore & ContactHistoryStore & CampaignStore & SenderHistoryStore & SignalStore;
  policy: Policy;
  clock: Clock;
  random: () => number;
  onEffects: (effects: EffectsApplied) => void;
  onTemplate: (metaTemplateId: string) => void;
  /** What the payload's changes tell subscribers; recorded with the batch, dropped with an undone payload. */
  emit: EmitEvent;
  /** The senders as the batch began (read once per batch): whose webhooks are Pacer's. */
  knownSenders: () => Promise<Sender[]>;
};

/** The database, not the payload, is at fault: the batch is tried again later, as it was. */
const TRANSIENT = new Set<StoreErrorCode>(['unavailable', 'busy', 'full', 'read_only']);

export type RowOutcome = { items: number; quarantine: string | null };

/** A payload read and parsed, or why it cannot be applied at all. */
export type PayloadRead = { row: InboxRow; items: WebhookItem[]; problems: string | null } | { row: InboxRow; quarantine: string };

/** Applies one payload's items, or quarantines a payload that could not be read. */
export async function processRow(read: PayloadRead, deps: ApplyDeps): Promise<RowOutcome> {
  if ('quarantine' in read) return { items: 0, quarantine: read.quarantine };
  for (const item of read.items) await applyItem(item, read.row.id, deps);
  return { items: read.items.length, quarantine: read.problems };
}

type Apply<S> = (
  store: S,
  read: PayloadRead,
  run: (work: () => Promise<RowOutcome>) => Promise<RowOutcome>,
) => { outcome: Promise<RowOutcome>; keep: () => void };

/**
 * The failure is the database's, not the payload's: the batch is tried again later, as it was.
 * Exported: reading a payload (process-inbox.ts) tells the two apart with it too.
 */
export const isTransient = (error: unknown): boolean => error instanceof StoreError && TRANSIENT.has(error.code);

/**
 * Batch first: every payload in one savepoint, with set-based reads and writes (InboxBatch). If any
 * payload fails, the batch is undone and null returned: the caller applies it one payload at a time.
 */
export async function applyBatch<S extends ApplyDeps['store'] & Savepoints & InboxBatchStore>(
  store: S,
  reads: readonly PayloadRead[],
  apply: Apply<S>,
  checkpoint: () => () => void,
  now: Millis,
): Promise<RowOutcome[] | null> {
  const keeps: Array<() => void> = [];
  const restore = checkpoint();
  try {
    const outcomes = await store.savepoint(async () => {
      const payloads = reads.flatMap((r) => ('quarantine' in r ? [] : [{ inboxId: r.row.id, items: r.items }]));
      const batch = await InboxBatch.prepare(store, payloads, now);
      const batchStore = batch.over(store);
      const out: RowOutcome[] = [];
      for (const read of reads) {
        const applied = apply(batchStore, read, (work) => work());
        out.push(await applied.outcome);
        keeps.push(applied.keep);
      }
      await batch.flush(now);
      return out;
    });
    for (const keep of keeps) keep();
    return outcomes;
  } catch (error) {
    restore();
    if (isTransient(error)) throw error;
    return null;
  }
}

/** One savepoint per payload: a payload that fails is undone and quarantined alone, the rest applied. */
export async function applyOneByOne<S extends ApplyDeps['store'] & Savepoints>(
  store: S,
  reads: readonly PayloadRead[],
  apply: Apply<S>,
  checkpoint: () => () => void,
): Promise<RowOutcome[]> {
  const out: RowOutcome[] = [];
  for (const read of reads) {
    const restore = checkpoint();
    const applied = apply(store, read, (work) => store.savepoint(work));
    out.push(
      await applied.outcome.then(
        (outcome) => {
          applied.keep();
          return outcome;
        },
        (error: unknown) => {
          restore(); // undone with its savepoint
          // The database being away is retried later; anything else is about this payload alone.
          if (isTransient(error)) throw error;
          return { items: 0, quarantine: `processing failed: ${error instanceof Error ? error.message : String(error)}` };
        },
      ),
    );
  }
  return out;
}

async function applyItem(item: WebhookItem, inboxId: number, deps: ApplyDeps): Promise<void> {
  const { store, policy } = deps;
  const now = deps.clock.now();
  switch (item.kind) {
    case 'status':
      return applyStatus(
        item,
        inboxId,
        {
          store,
          policy,
          random: deps.random,
          onEffects: deps.onEffects,
          emit: deps.emit,
          resolveContact: (key) => resolveContact(store, key, now),
        },
        now,
      );
    case 'inbound':
    case 'user_preference': {
      const [keyed] = toContactEvents([item]);
      if (keyed === undefined) return;
      const contactId = await resolveContact(store, keyed.contact, now);
      if (contactId === null) return;
      await applyContactEvents(store, contactId, [keyed.event], policy, now, deps.emit);
      if (item.kind === 'inbound') {
        const { inserted } = await store.recordInbound(
          {
            contactId,
            wamid: item.messageId,
            type: item.type,
            text: inboundText(item),
            at: item.at,
            phoneNumberId: item.source.phoneNumberId,
          },
          now,
        );
        if (inserted) deps.emit(repliedEvent(contactId, item));
        // Writing in opens the window: messages held for it (130472) go now.
        await store.wakeHeld(contactId, now);
      }
      return;
    }
    case 'user_id_change':
      return applyUserIdChange(store, item, now);
    case 'template_status': {
      // A deleted template has nothing left to fetch; the next sync marks it.
      if (item.event.toUpperCase() !== 'DELETED') deps.onTemplate(item.templateId);
      const t = await applyTemplateStatus(store, item, now);
      if (t !== null && (t.status === 'paused' || t.status === 'disabled')) {
        await pauseRunningCampaigns(
          store,
          { templateId: t.id },
          `Meta ${t.status} template ${t.name} (${t.language})${item.otherInfo?.title ? `: ${item.otherInfo.title}` : ''}`,
          now,
          deps.emit,
        );
      }
      return;
    }
    case 'template_quality': {
      const t = await applyTemplateQuality(store, item, now);
      if (t !== null && t.quality === 'RED' && policy.campaignBreaker.pauseOnRedTemplate) {
        await pauseRunningCampaigns(
          store,
          { templateId: t.id },
          `Template ${t.name} (${t.language}) quality fell to RED: recipients are blocking or reporting it`,
          now,
          deps.emit,
        );
      }
      return;
    }
    case 'template_category':
      deps.onTemplate(item.templateId);
      return applyTemplateCategory(store, item, now);
    case 'template_components':
      deps.onTemplate(item.templateId);
      return;
    case 'phone_quality': {
      const dropped = await applyPhoneQuality(store, item, now, deps.emit);
      if (dropped !== null && policy.campaignBreaker.pauseOnQualityDrop) {
        await pauseRunningCampaigns(
          store,
          { category: 'marketing', senders: [dropped] },
          `The quality rating of ${dropped.displayNumber} dropped (${item.event}); review the audience and templates before resuming`,
          now,
          deps.emit,
        );
      }
      return;
    }
    case 'business_capability':
      return applyBusinessCapability(store, item, now, deps.emit);
    case 'account_update': {
      const applied = await applyAccountUpdate(store, item, now, deps.emit);
      if (applied === null) return;
      const { reason } = applied;
      // The account's numbers' campaigns, not another account's.
      const paused = await pauseRunningCampaigns(store, { senders: applied.senders }, reason, now, deps.emit);
      // Reported like a refusal that stops a number: every number of the account, and what paused.
      const stopped = (await store.listSenders()).filter((s) => s.state === 'stopped' && s.stateReason === reason);
      deps.onEffects({ senderStopped: null, campaignsPaused: paused.map((campaignId) => ({ campaignId, reason })) });
      for (const s of stopped) deps.onEffects({ senderStopped: { phoneNumberId: s.phoneNumberId, reason }, campaignsPaused: [] });
      return;
    }
    case 'change_error':
    case 'ignored':
      return; // kept in the inbox for operators; nothing to apply
  }
}

/** A message the contact sent: what a CRM shows in its conversation view or routes to an agent. */
function repliedEvent(contactId: number, item: InboundItem): NewOutboundEvent {
  return {
    type: 'contact.replied',
    occurredAt: item.at,
    contactId,
    campaignId: null,
    phoneNumberId: item.source.phoneNumberId,
    data: {
      contactId,
      wamid: item.messageId,
      type: item.type,
      text: inboundText(item),
      buttonPayload: item.button?.payload ?? item.interactive?.id ?? null,
      inReplyTo: item.context?.messageId ?? null,
      to: item.source.phoneNumberId,
      at: iso(item.at),
    },
  };
}

/** What the contact wrote or tapped, for the conversation view. */
function inboundText(item: InboundItem): string | null {
  return item.text ?? item.button?.text ?? item.interactive?.title ?? item.media?.caption ?? item.system?.body ?? null;
}
