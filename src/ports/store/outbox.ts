import type { Category } from '../../core/category.js';
import type { Millis } from '../../core/time.js';
import type { JsonObject } from '../json.js';

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

/** The outbox, one row per intended message: rows in, and a row by id. */
export interface OutboxStore {
  /** Idempotent: a (campaign, contact) pair or an idempotency key already present is left as is. */
  insertOutbox(rows: readonly OutboxInput[], now: Millis): Promise<{ inserted: number }>;
  getOutbox(id: number): Promise<OutboxRow | null>;
}
