import { anyWindowOpen } from '../core/contact-facts.js';
import { decide } from '../core/decide.js';
import { MESSAGING_LIMIT_WINDOW_MS } from '../core/messaging-limit.js';
import type { ContactEvent } from '../core/contact-event.js';
import type { Decision, SendIntent, SendPath } from '../core/decision.js';
import type { Policy } from '../core/policy.js';
import { planRetry } from '../core/retry-plan.js';
import type { Millis } from '../core/time.js';
import type { CloudApi, Recipient, SendResult } from '../ports/cloud-api.js';
import type {
  Campaign,
  CampaignStore,
  ContactStateStore,
  ContactStore,
  ConversationStore,
  DecisionAuditInput,
  OutboxLeaseStore,
  OutboxRow,
  Sender,
  SenderStore,
  Template,
  TemplateStore,
} from '../ports/store.js';
import { applyFailure, type FailureDeps } from './apply-failure.js';
import { recipientOf } from './contact-address.js';
import type { NumberPacing } from './number-pacing.js';
import { messageTiming } from './message-timing.js';
import { buildSendRequest, parseOutboxIntent, type OutboxIntent } from './outbox-intent.js';
import { cachedTemplateShape } from './template-mapping.js';
import { composeComponents } from '../core/template-parameters.js';
import { recipientRegion } from './recipient-region.js';
import { decisionEvent, failureEvent, messageEvent } from './message-events.js';
import { retryMove, type RetryMove } from './retry-move.js';
import { loadContactState } from './update-contact-state.js';

export interface RowContext {
  store: Pick<ContactStore, 'getContact'> &
    ContactStateStore &
    OutboxLeaseStore &
    ConversationStore &
    SenderStore &
    TemplateStore &
    Pick<CampaignStore, 'getCampaign' | 'listCampaigns' | 'setCampaignStatus'>;
  api: CloudApi;
  policy: Policy;
  owner: string;
  now: () => Millis;
  /** Seeded in tests and the demo, Math.random in production: jitter for backoff. */
  random: () => number;
  template: (name: string, language: string) => Promise<Template | null>;
  sender: (phoneNumberId: string) => Promise<Sender | null>;
  /** The policy `decide` applies to a row of this campaign (its own frequency cap), or to a one-off (null). */
  policyFor: (campaignId: number | null) => Promise<Policy>;
  /** The row's campaign (read once per pass), or null for a one-off message. */
  campaignFor: (campaignId: number | null) => Promise<Campaign | null>;
  audit: (entry: DecisionAuditInput) => void;
  /** The number's messaging limit and pair-rate spacing. */
  pacing: NumberPacing;
  onEffects?: FailureDeps['onEffects'];
  /** What rows' outcomes tell subscribers; the dispatcher records them in the batch's transaction. */
  emit: FailureDeps['emit'];
}

export type RowOutcome = 'sent' | 'deferred' | 'held' | 'skipped' | 'failed' | 'retry' | 'unknown' | 'lost_lease';

/** A claimed row after `decide`: either settled already, or a request to send. */
export type PreparedRow =
  | { kind: 'settled'; row: OutboxRow; outcome: RowOutcome }
  | {
      kind: 'send';
      row: OutboxRow;
      intent: OutboxIntent;
      path: SendPath;
      template: Template | null;
      to: Recipient;
      /**
       * The sender whose portfolio's messaging limit this send uses once accepted (its place held in
       * the process's ledger under `key` until the answer is recorded), or null when it uses none.
       */
      conversationOf: { senderId: number; key: string } | null;
    };

/**
 * Decides one claimed row and applies every outcome that needs no network call (defer, hold, skip),
 * recording the intent of the sends before any HTTP call: after a crash such a row is found in
 * `sending` and is never blindly sent again. Meant to run inside one transaction per batch.
 */
export async function prepareOutboxRow(row: OutboxRow, ctx: RowContext): Promise<PreparedRow> {
  const { store } = ctx;
  const intent = parseOutboxIntent(row.intent, row.id);
  const [contact, state, template, sender, policy, campaign] = await Promise.all([
    store.getContact(row.contactId),
    loadContactState(store, row.contactId),
    intent.template ? ctx.template(intent.template.name, intent.template.language) : Promise.resolve(null),
    ctx.sender(intent.phoneNumberId),
    ctx.policyFor(row.campaignId),
    ctx.campaignFor(row.campaignId),
  ]);
  if (contact === null) throw new Error(`outbox row ${row.id}: contact ${row.contactId} does not exist`);
  const composed = withComponents(intent, template);
  const now = ctx.now();
  const limit = intent.template ? await ctx.pacing.limitFor(store, sender, row.contactId, now) : null;
  const sendIntent: SendIntent = {
    category: row.category,
    kind: intent.text !== undefined ? 'freeform' : 'template',
    recipientRegion: recipientRegion(contact.phoneE164),
    addressedBy: recipientOf(contact).kind,
    template: intent.template ? { status: template?.status ?? 'unknown', pausedUntil: template?.pausedUntil ?? null } : null,
    sender: senderState(sender),
    capAttempts: row.capAttempts,
    marketingApiRefused: false,
    messagingLimit: limit,
    lastSentToContactAt: ctx.pacing.lastSentTo(row.contactId),
    parameterProblem: intent.parameterProblem ?? (composed.ok ? null : composed.problem),
    timing: messageTiming({ category: row.category, contact, campaign, policy, queuedAt: row.createdAt, rowId: row.id }),
  };
  const decision = decide(state, sendIntent, now, policy);
  ctx.audit(auditOf(row, decision, now));
  const settled = (ok: boolean, outcome: RowOutcome): PreparedRow => {
    const told = ok ? decisionEvent(row, intent, decision, now) : null;
    if (told !== null) ctx.emit(told);
    return { kind: 'settled', row, outcome: ok ? outcome : 'lost_lease' };
  };
  switch (decision.kind) {
    case 'defer':
      return settled(
        await store.reschedule(
          row.id,
          ctx.owner,
          { status: 'queued', until: decision.until, capAttempt: false, errorCode: row.lastErrorCode },
          now,
        ),
        'deferred',
      );
    case 'hold':
      return settled(
        await store.reschedule(row.id, ctx.owner, { status: 'held', until: null, capAttempt: false, errorCode: row.lastErrorCode }, now),
        'held',
      );
    case 'skip':
      return settled(
        await store.complete(row.id, ctx.owner, decision.reason === 'capped_exhausted' ? 'capped_exhausted' : 'skipped', now),
        'skipped',
      );
    case 'send': {
      if (!(await store.recordIntent(row.id, ctx.owner, now))) return settled(false, 'lost_lease');
      const counts = limit !== null && !limit.contactCounted && !anyWindowOpen(state, now);
      const key = ctx.pacing.noteSend(sender, row.contactId, counts, now);
      return {
        kind: 'send',
        row,
        intent: composed.ok ? composed.intent : intent,
        path: decision.path,
        template,
        to: recipientOf(contact),
        conversationOf: key !== null && sender !== null ? { senderId: sender.id, key } : null,
      };
    }
  }
}

type Composed =
  { ok: true; intent: OutboxIntent } | { ok: false; problem: { reason: 'missing_parameter' | 'invalid_parameter'; detail: string } };

/** The send components from the row's frozen values and the template as stored now. */
function withComponents(intent: OutboxIntent, template: Template | null): Composed {
  const t = intent.template;
  if (t?.values === undefined) return { ok: true, intent };
  const shape = template === null ? null : cachedTemplateShape(template);
  if (shape === null || shape.kind === 'unknown') {
    const detail = `the placeholders of ${t.name}/${t.language} are no longer known; run pacer template sync`;
    return { ok: false, problem: { reason: 'invalid_parameter', detail } };
  }
  const c = composeComponents(shape.definition, shape.category, t.values);
  if (!c.ok) return { ok: false, problem: { reason: 'missing_parameter', detail: c.detail } };
  return { ok: true, intent: { ...intent, template: { ...t, components: c.components } } };
}

/** The HTTP call; no storage. A refusal by the Marketing Messages API falls back to /messages once. */
export async function sendPrepared(p: Extract<PreparedRow, { kind: 'send' }>, api: CloudApi): Promise<SendResult> {
  const result = await api.send(buildSendRequest(p.row.id, p.intent, p.to, p.path === 'cloud' ? 'messages' : 'marketing_messages'));
  if (result.kind === 'rejected' && result.errorClass === 'marketing_api_refused' && p.path === 'marketing_messages') {
    return api.send(buildSendRequest(p.row.id, p.intent, p.to, 'messages'));
  }
  return result;
}

/**
 * Where an accepted marketing send's contact event goes: the caller applies a run of them together
 * (`applyContactEventsBatch`), before any other answer's effects read a state.
 */
export type AcceptedContactEvents = (contactId: number, events: readonly ContactEvent[]) => void;

/** Records what Meta answered. Meant to run inside one transaction per batch. */
export async function finishOutboxRow(
  p: Extract<PreparedRow, { kind: 'send' }>,
  result: SendResult,
  ctx: RowContext,
  accepted: AcceptedContactEvents,
): Promise<RowOutcome> {
  if (result.kind === 'accepted' && p.conversationOf !== null) {
    await ctx.store.recordConversation(p.conversationOf.senderId, p.row.contactId, ctx.now(), MESSAGING_LIMIT_WINDOW_MS);
  }
  return applySendResult(p.row, ctx, result, p.path, p.intent, p.template, accepted);
}

async function applySendResult(
  row: OutboxRow,
  ctx: RowContext,
  result: SendResult,
  path: SendPath,
  intent: OutboxIntent,
  template: Template | null,
  accepted: AcceptedContactEvents,
): Promise<RowOutcome> {
  const { store, owner } = ctx;
  const now = ctx.now();
  switch (result.kind) {
    case 'accepted':
      // A row whose lease ran out meanwhile is settled by its status webhooks, which report it then.
      if (await store.recordAccepted(row.id, owner, result.wamid, now)) {
        ctx.emit(messageEvent('message.accepted', { ...row, wamid: result.wamid }, intent, now, { path }));
      }
      if (row.category === 'marketing') {
        accepted(row.contactId, [
          { type: 'send_accepted', id: `acc:${row.id}:${row.attempts}`, at: now, messageId: result.wamid, category: 'marketing', path },
        ]);
      }
      return 'sent';
    case 'transport_failure':
      if (result.reason === 'timeout' || result.reason === 'connection_reset') {
        // The request may have reached Meta: never re-send blindly. The lease sweep marks the row
        // unknown and a status webhook carrying our callback data settles it.
        return 'unknown';
      }
      return moveRow(
        row,
        intent,
        ctx,
        retryMove(
          planRetry(131016, now, { failures: row.attempts + 1, capFailures: row.capAttempts }, ctx.policy, ctx.random()),
          now,
          null,
          null,
          ctx.policy.blockedRecheckMs,
        ),
        null,
      );
    case 'rejected': {
      const code = result.code;
      const { move } = await applyFailure(
        ctx,
        {
          contactId: row.contactId,
          event: {
            type: 'send_error',
            id: `err:${row.id}:${row.attempts}`,
            at: now,
            messageId: null,
            category: row.category,
            errorCode: code,
          },
          code,
          failedAt: now,
          // The claimed row was read before recordIntent counted this attempt.
          history: { failures: row.attempts + 1, capFailures: row.capAttempts + (result.errorClass === 'per_user_marketing_cap' ? 1 : 0) },
          phoneNumberId: intent.phoneNumberId,
          campaignId: row.campaignId,
          template: intent.template
            ? { name: intent.template.name, language: intent.template.language, category: template?.category ?? row.category }
            : null,
          senderBackoff: 'until_retry',
        },
        now,
      );
      return moveRow(row, intent, ctx, move, code);
    }
  }
}

async function moveRow(row: OutboxRow, intent: OutboxIntent, ctx: RowContext, move: RetryMove, code: number | null): Promise<RowOutcome> {
  const { store, owner } = ctx;
  const now = ctx.now();
  const outcome = await (async (): Promise<RowOutcome> => {
    if (move.kind === 'reschedule') {
      return (await store.reschedule(row.id, owner, move.input, now)) ? (move.input.status === 'held' ? 'held' : 'retry') : 'lost_lease';
    }
    if (move.outcome === 'capped_exhausted')
      return (await store.complete(row.id, owner, 'capped_exhausted', now)) ? 'skipped' : 'lost_lease';
    return (await store.fail(row.id, owner, move.errorCode, now)) ? 'failed' : 'lost_lease';
  })();
  if (outcome !== 'lost_lease') ctx.emit(failureEvent(row, intent, code, move, ctx.policy.capCodes, now));
  return outcome;
}

function senderState(sender: Sender | null): SendIntent['sender'] {
  if (sender === null || sender.state === 'ok') return { state: 'ok' };
  if (sender.state === 'throttled') return { state: 'throttled', until: sender.stateUntil ?? 0 };
  return { state: 'stopped', why: sender.stateReason ?? 'stopped by an operator' };
}

function auditOf(row: OutboxRow, d: Decision, at: Millis): DecisionAuditInput {
  return {
    outboxId: row.id,
    contactId: row.contactId,
    kind: d.kind,
    reason: d.reason,
    explanation: d.explanation,
    until: d.kind === 'defer' || d.kind === 'skip' ? d.until : null,
    at,
  };
}
