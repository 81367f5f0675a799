import type { Millis } from '../../core/time.js';
import type { OutboxOutcome, OutboxStatus } from './outbox.js';

/** All outbox rows by status, and by outcome for those that have one (queue depth, sends by outcome). */
export interface OutboxTotals {
  byStatus: Record<OutboxStatus, number>;
  byOutcome: Record<OutboxOutcome, number>;
}

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

/** Attempted campaign rows per template, by outcome and last error code. */
export interface TemplateOutcomeRow {
  templateId: number;
  outcome: OutboxOutcome | null;
  code: number | null;
  count: number;
}

/** Read models of what all sends (or one campaign's) became: metrics totals, the funnel, failures over time. */
export interface DeliveryReportStore {
  outboxTotals(): Promise<OutboxTotals>;
  /** One campaign's funnel, or (null) every campaign's rows together. */
  deliveryFunnel(campaignId: number | null): Promise<DeliveryFunnel>;
  /** Settled failures since `since` per `bucketMs` bucket and code, of one campaign or (null) all rows; oldest first. */
  failuresByCode(campaignId: number | null, since: Millis, bucketMs: number): Promise<FailureBucket[]>;
  templateOutcomes(): Promise<TemplateOutcomeRow[]>;
}
