import type { Category } from '../core/category.js';
import type { DeliveryStatus } from '../core/contact-event.js';
import type { Millis } from '../core/time.js';
import type { JsonObject } from './store.js';

// The Store port's types for the send pipeline: outbox rows and their transitions, shared pacing,
// message events, the webhook inbox and the decision audit. The operations are in `store.ts`.

/**
 * queued → leased (claimed) → sending (intent recorded) → sent (accepted, has wamid) → done.
 * held waits for the contact to open a window; unknown means a crash left the send's fate unknown:
 * such a row is never re-sent blindly.
 */
export type OutboxStatus = 'queued' | 'held' | 'leased' | 'sending' | 'sent' | 'done' | 'unknown';
export type OutboxOutcome = 'accepted' | 'delivered' | 'read' | 'failed' | 'skipped' | 'capped_exhausted' | 'cancelled';

export interface OutboxInput {
  campaignId: number | null;
  contactId: number;
  senderId: number | null;
  category: Category;
  /** What to send (template, parameters or text); opaque to the store. */
  intent: JsonObject;
  /** For one-off messages: a caller key that makes the insert idempotent. */
  idempotencyKey: string | null;
  nextAttemptAt: Millis;
}

export interface OutboxRow extends OutboxInput {
  id: number;
  status: OutboxStatus;
  attempts: number;
  capAttempts: number;
  leaseOwner: string | null;
  leaseExpiresAt: Millis | null;
  wamid: string | null;
  lastErrorCode: number | null;
  outcome: OutboxOutcome | null;
  createdAt: Millis;
  updatedAt: Millis;
}

/** Tokens from a bucket every process shares, e.g. one sender number's throughput. */
export interface PaceRequest {
  key: string;
  /** Whole tokens wanted now; the grant may be fewer, or none. */
  want: number;
  /** Refill rate: the number's messages per second. */
  perSecond: number;
  /** Most tokens a quiet bucket saves up: the largest burst any process may send at once. */
  burst: number;
  now: Millis;
}

export interface PaceGrant {
  granted: number;
  /** When the bucket will hold what was wanted (at most a burst, at least one token) again. */
  nextAt: Millis;
}

export interface ClaimOptions {
  owner: string;
  now: Millis;
  leaseMs: number;
  limit: number;
}

export interface RescheduleInput {
  /** `held` rows keep `until` as a fallback wake-up time (e.g. the campaign's end), or null. */
  status: 'queued' | 'held';
  until: Millis | null;
  /** This attempt hit the per-user marketing cap: count it against the message's cap attempts. */
  capAttempt: boolean;
  errorCode: number | null;
}

export interface SweepResult {
  /** Leased but never started: safe to claim again. */
  requeued: number;
  /** Intent recorded but no result: marked unknown until a status webhook reconciles them. */
  unknown: number;
}

// ---- events, inbox, audit ----

export interface MessageEventInput {
  wamid: string;
  status: DeliveryStatus;
  at: Millis;
  errorCode: number | null;
  /** The inbox row the event was parsed from. */
  inboxId: number | null;
  /** Our outbox row, from the callback data echoed in the status; null for messages not ours. */
  outboxId?: number | null;
}

export interface InboxInput {
  raw: Uint8Array;
  receivedAt: Millis;
  signatureOk: boolean;
}
export interface InboxRow extends InboxInput {
  id: number;
  processedAt: Millis | null;
  quarantineReason: string | null;
}

export interface DecisionAuditInput {
  outboxId: number | null;
  contactId: number;
  kind: 'send' | 'defer' | 'hold' | 'skip';
  reason: string;
  explanation: string;
  until: Millis | null;
  at: Millis;
}
