import type { DeliveryStatus } from '../../core/contact-event.js';
import type { Millis } from '../../core/time.js';
import type { RescheduleInput } from './outbox-leases.js';
import type { OutboxOutcome, OutboxRow } from './outbox.js';

/**
 * A row as a status left it: everything but its intent, which a status needs only the number and the
 * template of (read by the database, so the intent's text is never sent back and parsed per status).
 */
export interface SettledOutboxRow extends Omit<OutboxRow, 'intent'> {
  /** The intent's number (null when the intent names none) and template (null for text). */
  sentAs: { phoneNumberId: string | null; template: { name: string; language: string } | null };
}

/** What webhooks do to rows nobody holds a lease on: statuses, asynchronous failures, windows opening. */
export interface OutboxSettlementStore {
  /**
   * Applies a delivery status to the row that sent `wamid` (or to `outboxId`, echoed in our callback
   * data, when the send's answer was lost). Outcomes only move forward. Returns the row as updated,
   * or null when nothing moved.
   */
  recordDelivery(
    ref: { wamid: string; outboxId: number | null },
    status: DeliveryStatus,
    errorCode: number | null,
    now: Millis,
  ): Promise<SettledOutboxRow | null>;
  /**
   * Many statuses at once, in set-based statements: each as `recordDelivery` would. The refs must
   * name different messages and different rows (one status per row): several statuses of one row
   * move it in turn, which only one call each can do. The rows as updated, or null, in order.
   */
  recordDeliveries(
    refs: readonly { wamid: string; outboxId: number | null; status: DeliveryStatus; errorCode: number | null }[],
    now: Millis,
  ): Promise<(SettledOutboxRow | null)[]>;
  /** After an asynchronous failure: back in line (queued or held) unless a worker holds the row. */
  requeue(id: number, input: RescheduleInput, now: Millis): Promise<boolean>;
  /** Ends a row nobody holds a lease on, e.g. capped_exhausted learnt from a webhook. */
  settle(id: number, outcome: OutboxOutcome, errorCode: number | null, now: Millis): Promise<boolean>;
  /** Rows held for this contact's window wake up now. */
  wakeHeld(contactId: number, now: Millis): Promise<number>;
}
