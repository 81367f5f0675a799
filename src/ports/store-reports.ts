/**
 * The read models behind the operator surfaces: the dashboard's aggregates and history, and the
 * facts a diagnosis gathers. Part of the `Store` port (which extends `StoreReports`).
 */
import type { CodeCount, ConsentMix, Usage } from '../core/diagnosis-facts.js';
import type { WaitingCell } from '../core/recipient-outcomes.js';
import type { Millis } from '../core/time.js';
import type { Category } from '../core/category.js';
import type { ConsentStatus, DeliveryStatus } from '../core/contact-event.js';
import type { DecisionAuditInput, OutboxOutcome, OutboxStatus, SenderState } from './store.js';

// ---- campaigns, contacts and queue ----

export type CampaignCounters = Record<OutboxStatus | OutboxOutcome | 'total', number>;

export type TimelineEntry =
  | { type: 'consent'; at: Millis; category: Category; status: ConsentStatus; source: string }
  | { type: 'decision'; at: Millis; outboxId: number | null; kind: DecisionAuditInput['kind']; reason: string; explanation: string }
  | { type: 'message_event'; at: Millis; outboxId: number; wamid: string; status: DeliveryStatus; errorCode: number | null };

/** A campaign's latest final outcomes, for the breaker. */
export interface CampaignWindow {
  outcomes: number;
  caps: number;
  accountStops: number;
}

/** All outbox rows by status, and by outcome for those that have one (queue depth, sends by outcome). */
export interface OutboxTotals {
  byStatus: Record<OutboxStatus, number>;
  byOutcome: Record<OutboxOutcome, number>;
}

// ---- diagnosis ----

/** The sends a diagnosis looks at: those attempted in [since, until), of one campaign or of all traffic. */
export interface DiagnosisScope {
  campaignId: number | null;
  since: Millis;
  until: Millis;
  capCodes: readonly number[];
  /** A recipient failing this many times (or more) fails repeatedly. */
  repeatedFailures: number;
  /** Accepted before this time and still not delivered: a candidate for the block proxy. */
  silentBefore: Millis;
}

/** Messages (outbox rows), recipients and send attempts in scope, and what failed. */
export interface DiagnosisSends {
  messages: number;
  recipients: number;
  attempts: number;
  /** Most frequent first. */
  failures: CodeCount[];
  failing: { recipients: number; attempts: number; repeated: number; worst: number };
}

/** What the scope's messages did, for one template or one campaign (the diagnosis's usage without its label). */
export type UsageCounts = Omit<Usage, 'label'>;

/** One template's messages in scope (one-off rows count by category, with a null template). */
export interface TemplateSends extends UsageCounts {
  templateId: number | null;
}

/** One campaign's messages in scope: its segment, as the audience that received them. */
export interface CampaignSends extends UsageCounts {
  campaignId: number;
}

export interface DiagnosisAudience {
  /** Marketing consent of the recipients that failed (of all recipients in scope when none did). */
  consent: ConsentMix;
  /** Recipients who wrote in at or after `since`. */
  replied: number;
  stopped: number;
  stopKinds: { kind: string; recipients: number }[];
}

// ---- dashboard: history and aggregates ----

/** One change of a sender number's quality rating, messaging limit or restriction. */
export interface SenderChangeInput {
  senderId: number;
  at: Millis;
  qualityRating: string | null;
  messagingLimitTier: string | null;
  state: SenderState;
  stateReason: string | null;
  /** The signal that changed it, e.g. `phone_quality FLAGGED`. */
  source: string;
}
export interface SenderChange extends SenderChangeInput { id: number }

/** A message a contact sent us (a reply), kept for the conversation view and the funnel. */
export interface InboundMessageInput {
  contactId: number;
  wamid: string;
  /** Meta's message type: `text`, `button`, `interactive`, `image`... */
  type: string;
  /** The text, button title or caption; null for content without any. */
  text: string | null;
  at: Millis;
}
export interface InboundMessage extends InboundMessageInput { id: number }

/**
 * Outbox rows at each step: audience (all rows), eligible (not skipped by a decision), attempted
 * (sent at least once), accepted (Meta took the latest attempt), held (waiting for a window),
 * delivered, read, replied (accepted, and the contact wrote in after the row was queued).
 */
export interface DeliveryFunnel {
  audience: number;
  eligible: number;
  attempted: number;
  accepted: number;
  held: number;
  delivered: number;
  read: number;
  replied: number;
}

/** Failed or cap-exhausted rows settled in one time bucket with one error code. */
export interface FailureBucket {
  bucketStart: Millis;
  code: number | null;
  count: number;
}

/** A campaign's rows grouped by status, outcome and last error code. */
export interface OutboxBreakdownRow {
  status: OutboxStatus;
  outcome: OutboxOutcome | null;
  code: number | null;
  count: number;
}

/** Delivered rows by the attempt that delivered them, and rows whose retries ran out. */
export interface RetryRecovery {
  deliveredByAttempt: { attempts: number; count: number }[];
  /** capped_exhausted, or failed after at least one retry. */
  exhausted: number;
}

/** Attempted campaign rows per template, by outcome and last error code. */
export interface TemplateOutcomeRow {
  templateId: number;
  outcome: OutboxOutcome | null;
  code: number | null;
  count: number;
}

/** One row of a paged outbox list (pending retries, held recipients), with the contact's name. */
export interface OutboxListRow {
  id: number;
  contactId: number;
  contactName: string | null;
  status: OutboxStatus;
  attempts: number;
  capAttempts: number;
  nextAttemptAt: Millis | null;
  lastErrorCode: number | null;
  updatedAt: Millis;
}

export interface OutboxListFilter {
  campaignId: number;
  /** `retry`: queued rows already tried once (next attempt scheduled); `held`: waiting for a window. */
  kind: 'retry' | 'held';
  /** Keyset paging: rows with a larger id. */
  afterId: number;
  limit: number;
}

export interface StoreReports {
  campaignCounters(campaignId: number): Promise<CampaignCounters>;
  /** Newest first. */
  contactTimeline(contactId: number, limit: number): Promise<TimelineEntry[]>;
  /** Id of the newest message event (0 when none): lets callers skip work when nothing arrived. */
  latestMessageEventId(): Promise<number>;
  campaignWindow(campaignId: number, limit: number, capCodes: readonly number[], stopCodes: readonly number[]): Promise<CampaignWindow>;
  outboxTotals(): Promise<OutboxTotals>;

  /** Appends to a sender's history (the senders row keeps only the latest values). */
  recordSenderChange(change: SenderChangeInput): Promise<void>;
  /** A sender's changes since `since`, oldest first, at most `limit` (the latest ones). */
  senderChanges(senderId: number, since: Millis, limit: number): Promise<SenderChange[]>;
  /** False when this wamid was already recorded. */
  recordInbound(message: InboundMessageInput, now: Millis): Promise<{ inserted: boolean }>;
  /** Newest first. */
  contactInbound(contactId: number, limit: number): Promise<InboundMessage[]>;
  /** One campaign's funnel, or (null) every campaign's rows together. */
  deliveryFunnel(campaignId: number | null): Promise<DeliveryFunnel>;
  /** Settled failures since `since` per `bucketMs` bucket and code, of one campaign or (null) all rows; oldest first. */
  failuresByCode(campaignId: number | null, since: Millis, bucketMs: number): Promise<FailureBucket[]>;
  outboxBreakdown(campaignId: number): Promise<OutboxBreakdownRow[]>;
  /** A campaign's skipped rows by the reason of their skip decision, most frequent first. */
  skipReasons(campaignId: number): Promise<{ reason: string; count: number }[]>;
  /** A campaign's waiting rows by status, last error code and latest decision, most first, with when they are next due. */
  waitingReasons(campaignId: number): Promise<WaitingCell[]>;
  retryRecovery(campaignId: number): Promise<RetryRecovery>;
  templateOutcomes(): Promise<TemplateOutcomeRow[]>;
  /** A page of a campaign's pending retries or held rows, by id. */
  listOutboxRows(filter: OutboxListFilter): Promise<OutboxListRow[]>;
  diagnosisSends(scope: DiagnosisScope): Promise<DiagnosisSends>;
  /** Per template, most messages first. */
  diagnosisTemplates(scope: DiagnosisScope): Promise<TemplateSends[]>;
  /** Per campaign, most messages first; one-off messages are not a campaign. */
  diagnosisCampaigns(scope: DiagnosisScope): Promise<CampaignSends[]>;
  diagnosisAudience(scope: DiagnosisScope): Promise<DiagnosisAudience>;
  /** Send attempts of all traffic in [since, until): the volume a diagnosis compares. */
  sendAttempts(since: Millis, until: Millis): Promise<number>;
}
