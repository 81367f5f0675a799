import type { WaitingCell } from '../../core/recipient-outcomes.js';
import type { Millis } from '../../core/time.js';
import type { OutboxOutcome, OutboxStatus } from './outbox.js';

export type CampaignCounters = Record<OutboxStatus | OutboxOutcome | 'total', number>;

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

/** Which of a campaign's recipients to list: a page after a row id, optionally of one status or outcome. */
export interface RecipientFilter {
  campaignId: number;
  /** Keyset paging: rows with a larger id. */
  afterId: number;
  limit: number;
  status?: OutboxStatus;
  outcome?: OutboxOutcome;
}

/** One recipient of a campaign: its outbox row, the contact's keys, and the latest decision about it. */
export interface CampaignRecipientRow {
  /** The outbox row's id: Pacer's message id. */
  id: number;
  contactId: number;
  phoneE164: string | null;
  waId: string | null;
  bsuid: string | null;
  status: OutboxStatus;
  outcome: OutboxOutcome | null;
  lastErrorCode: number | null;
  attempts: number;
  capAttempts: number;
  nextAttemptAt: Millis | null;
  updatedAt: Millis;
  /** Null before the dispatcher first judged the row. */
  latestDecision: { kind: 'send' | 'defer' | 'hold' | 'skip'; reason: string; until: Millis | null; at: Millis } | null;
}

/** Read models of one campaign's rows: counters, breakdowns, retries, and its recipients page by page. */
export interface CampaignReportStore {
  campaignCounters(campaignId: number): Promise<CampaignCounters>;
  outboxBreakdown(campaignId: number): Promise<OutboxBreakdownRow[]>;
  /** A campaign's skipped rows by the reason of their skip decision, most frequent first. */
  skipReasons(campaignId: number): Promise<{ reason: string; count: number }[]>;
  /** A campaign's waiting rows by status, last error code and latest decision, most first, with when they are next due. */
  waitingReasons(campaignId: number): Promise<WaitingCell[]>;
  retryRecovery(campaignId: number): Promise<RetryRecovery>;
  /** A page of a campaign's pending retries or held rows, by id. */
  listOutboxRows(filter: OutboxListFilter): Promise<OutboxListRow[]>;
  /** A page of a campaign's recipients, every status, by row id. */
  campaignRecipients(filter: RecipientFilter): Promise<CampaignRecipientRow[]>;
}
