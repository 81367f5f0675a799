import type { Category } from '../../core/category.js';
import type { DeliveryStatus } from '../../core/contact-event.js';
import type { Millis } from '../../core/time.js';
import type { JsonObject } from '../json.js';
import type { DecisionAuditInput } from './event-log.js';

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
  /** For one-off messages: the caller's own reference (an order id), at most 200 characters; absent or null: none. */
  clientReference?: string | null;
}

export interface OutboxRow extends OutboxInput {
  id: number;
  clientReference: string | null;
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

/** One thing that happened to a message: a decision about it, or a status Meta reported. */
export type MessageHistoryEntry =
  | { type: 'decision'; at: Millis; kind: DecisionAuditInput['kind']; reason: string; explanation: string; until: Millis | null }
  | { type: 'status'; at: Millis; status: DeliveryStatus; errorCode: number | null };

/** The outbox, one row per intended message: rows in, a row by id or by its idempotency key, and its history. */
export interface OutboxStore {
  /** Idempotent: a (campaign, contact) pair or an idempotency key already present is left as is. */
  insertOutbox(rows: readonly OutboxInput[], now: Millis): Promise<{ inserted: number }>;
  getOutbox(id: number): Promise<OutboxRow | null>;
  /** The row queued under this idempotency key, whichever request queued it. */
  findOutboxByKey(idempotencyKey: string): Promise<OutboxRow | null>;
  /** The row's decisions and status events, oldest first, at most `limit` of each (the newest ones). */
  messageHistory(outboxId: number, limit: number): Promise<MessageHistoryEntry[]>;
}
