import type { EmitEvent, NewOutboundEvent } from '../core/outbound-event.js';
import type { Policy } from '../core/policy.js';
import { iso, type Millis } from '../core/time.js';
import type { Clock } from '../ports/clock.js';
import type { Logger } from '../ports/logger.js';
import {
  StoreError,
  type CampaignStore,
  type ContactHistoryStore,
  type ContactStore,
  type InboxRow,
  type InboxStore,
  type Savepoints,
  type Sender,
  type SenderHistoryStore,
  type SignalStore,
  type Store,
  type StoreErrorCode,
} from '../ports/store.js';
import type { InboundItem, ParseWebhook, WebhookItem } from '../ports/webhook-items.js';
import type { WorkQueued } from '../ports/work-signal.js';
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
import { logEffects } from './log-effects.js';
import type { EffectsApplied } from './send-effects.js';
import { pauseRunningCampaigns } from './pause-campaigns.js';
import { unknownNumberIn } from './webhook-routing.js';
import { resolveContact } from './resolve-contact.js';
import { toContactEvents } from './to-contact-events.js';
import { applyContactEvents } from './update-contact-state.js';

export interface InboxDeps {
  store: Pick<InboxStore, 'listUnprocessedInbox'> & Pick<Store, 'transaction'>;
  policy: Policy;
  clock: Clock;
  random: () => number;
  /** The webhook adapter's parser, passed in by the composition root. */
  parse: ParseWebhook;
  /** Told of rows the batch put back in line (failures to retry, held rows a reply woke), once committed. */
  signal?: WorkQueued;
  /** Where failures' effects that stop sending are reported; none without it. */
  logger?: Logger;
  /**
   * Told, once the batch is stored, of each template (Meta's id) a webhook changed: the webhooks
   * carry only part of a template, so the rest is fetched again (src/app/sync-templates.ts).
   */
  onTemplateChanged?: (metaTemplateId: string) => void;
}

/** Inside the batch's transaction: the roles the payloads' items are applied with. */
type ApplyDeps = Omit<InboxDeps, 'store'> & {
  store: StatusDeps['store'] & ContactStore & ContactHistoryStore & CampaignStore & SenderHistoryStore & SignalStore;
  onEffects: (effects: EffectsApplied) => void;
  onTemplate: (metaTemplateId: string) => void;
  /** What the payload's changes tell subscribers; recorded with the batch, dropped with an undone payload. */
  emit: EmitEvent;
  /** The senders as the batch began (read once per batch): whose webhooks are Pacer's. */
  knownSenders: () => Promise<Sender[]>;
};

export interface InboxResult {
  rows: number;
  items: number;
  quarantined: number;
}

/** The database, not the payload, is at fault: the batch is tried again later, as it was. */
const TRANSIENT = new Set<StoreErrorCode>(['unavailable', 'busy', 'full', 'read_only']);

/**
 * Parses and applies stored webhook payloads, oldest first. A payload that cannot be read, or whose
 * effects cannot be stored, is quarantined with the reason (and can be replayed after a fix); the
 * rest is applied. Everything a payload does is idempotent, so a crash mid-way simply re-applies it.
 */
export async function processInbox(deps: InboxDeps, limit = 200): Promise<InboxResult> {
  const rows = await deps.store.listUnprocessedInbox(0, limit);
  if (rows.length === 0) return { rows: 0, items: 0, quarantined: 0 };
  let queuedAt: Millis | null = null;
  const queued = (at: Millis): void => {
    queuedAt = Math.min(queuedAt ?? at, at);
  };
  // One transaction per batch. The batch is applied whole first, with set-based statements; if a
  // payload fails, that is undone and the batch applied one savepoint per payload, so the failing
  // one is undone and quarantined alone. A crash re-applies the batch, which is harmless (idempotent).
  const effects: EffectsApplied[] = [];
  const templates = new Set<string>();
  const events: NewOutboundEvent[] = [];
  const result = await deps.store.transaction(async (tx) => {
    effects.length = 0; // what a rolled-back attempt saw never happened
    templates.clear();
    events.length = 0;
    queuedAt = null;
    const store: typeof tx = {
      ...tx,
      requeue: async (id, input, now) => {
        const moved = await tx.requeue(id, input, now);
        if (moved && input.until !== null) queued(input.until);
        return moved;
      },
      wakeHeld: async (contactId, now) => {
        const woken = await tx.wakeHeld(contactId, now);
        if (woken > 0) queued(now);
        return woken;
      },
    };
    let senders: Promise<Sender[]> | null = null;
    const knownSenders = () => (senders ??= tx.listSenders());
    const reads = await Promise.all(rows.map((row) => readPayload(row, deps.parse, knownSenders)));
    /** Applies one payload, keeping what it reported only if `run` (its savepoint) holds. */
    const apply = (applyStore: typeof tx, read: PayloadRead, run: (work: () => Promise<RowOutcome>) => Promise<RowOutcome>) => {
      const seen: EffectsApplied[] = [];
      const changed: string[] = [];
      const told: NewOutboundEvent[] = [];
      return {
        outcome: run(() =>
          processRow(read, {
            ...deps,
            store: applyStore,
            knownSenders,
            onEffects: (e) => seen.push(e),
            onTemplate: (id) => changed.push(id),
            emit: (e) => told.push(e),
          }),
        ),
        keep: () => {
          effects.push(...seen);
          events.push(...told);
          for (const id of changed) templates.add(id);
        },
      };
    };
    // What was queued, put back when the part that queued it is undone.
    const checkpoint = (): (() => void) => {
      const before = queuedAt;
      return () => {
        queuedAt = before;
      };
    };
    const outcomes =
      (await applyBatch(store, reads, apply, checkpoint, deps.clock.now())) ?? (await applyOneByOne(store, reads, apply, checkpoint));
    const result: InboxResult = { rows: rows.length, items: 0, quarantined: 0 };
    const done: number[] = [];
    for (const [i, outcome] of outcomes.entries()) {
      const row = reads[i]!.row;
      result.items += outcome.items;
      if (outcome.quarantine === null) done.push(row.id);
      else {
        await store.quarantineInbox(row.id, outcome.quarantine, deps.clock.now());
        result.quarantined++;
      }
    }
    if (done.length > 0) await store.markInboxProcessed(done, deps.clock.now());
    if (events.length > 0) await store.recordOutboundEvents(events, deps.clock.now());
    return result;
  });
  if (queuedAt !== null) deps.signal?.notifyQueued(queuedAt);
  if (deps.logger !== undefined) logEffects(deps.logger, effects);
  for (const id of templates) deps.onTemplateChanged?.(id);
  return result;
}

type RowOutcome = { items: number; quarantine: string | null };

/** A payload read and parsed, or why it cannot be applied at all. */
type PayloadRead = { row: InboxRow; items: WebhookItem[]; problems: string | null } | { row: InboxRow; quarantine: string };

async function readPayload(row: InboxRow, parse: ParseWebhook, knownSenders: () => Promise<Sender[]>): Promise<PayloadRead> {
  try {
    return await parsePayload(row, parse, knownSenders);
  } catch (error) {
    if (isTransient(error)) throw error;
    return { row, quarantine: `processing failed: ${error instanceof Error ? error.message : String(error)}` };
  }
}

async function parsePayload(row: InboxRow, parse: ParseWebhook, knownSenders: () => Promise<Sender[]>): Promise<PayloadRead> {
  let body: unknown;
  try {
    body = JSON.parse(Buffer.from(row.raw).toString('utf8'));
  } catch (error) {
    return { row, quarantine: `body is not JSON: ${error instanceof Error ? error.message : String(error)}` };
  }
  const parsed = parse(body);
  const unknown = unknownNumberIn(parsed.items, await knownSenders());
  if (unknown !== null) return { row, quarantine: unknown };
  if (parsed.problems.length === 0) return { row, items: parsed.items, problems: null };
  const listed = parsed.problems
    .slice(0, 5)
    .map((p) => `${p.path}: ${p.message}`)
    .join('; ');
  const more = parsed.problems.length > 5 ? ` (+${parsed.problems.length - 5} more)` : '';
  const applied = parsed.items.length > 0 ? `applied ${parsed.items.length} good item(s); ` : '';
  return { row, items: parsed.items, problems: `${applied}malformed: ${listed}${more}` };
}

async function processRow(read: PayloadRead, deps: ApplyDeps): Promise<RowOutcome> {
  if ('quarantine' in read) return { items: 0, quarantine: read.quarantine };
  for (const item of read.items) await applyItem(item, read.row.id, deps);
  return { items: read.items.length, quarantine: read.problems };
}

type Apply<S> = (
  store: S,
  read: PayloadRead,
  run: (work: () => Promise<RowOutcome>) => Promise<RowOutcome>,
) => { outcome: Promise<RowOutcome>; keep: () => void };

/** The failure is the database's, not the payload's: the batch is tried again later, as it was. */
const isTransient = (error: unknown): boolean => error instanceof StoreError && TRANSIENT.has(error.code);

/**
 * Batch first: every payload in one savepoint, with set-based reads and writes (InboxBatch). If any
 * payload fails, the batch is undone and null returned: the caller applies it one payload at a time.
 */
async function applyBatch<S extends ApplyDeps['store'] & Savepoints & InboxBatchStore>(
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
async function applyOneByOne<S extends ApplyDeps['store'] & Savepoints>(
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
