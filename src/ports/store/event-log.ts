import type { CampaignOutcome } from '../../core/campaign-outcome-window.js';
import type { DeliveryStatus } from '../../core/contact-event.js';
import type { Millis } from '../../core/time.js';

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

export interface DecisionAuditInput {
  outboxId: number | null;
  contactId: number;
  kind: 'send' | 'defer' | 'hold' | 'skip';
  reason: string;
  explanation: string;
  until: Millis | null;
  at: Millis;
}

/** The append-only logs of delivery statuses and decisions, and the reads the campaign breaker makes of them. */
export interface EventLogStore {
  /** False when this (wamid, status) was already recorded. */
  appendMessageEvent(event: MessageEventInput, now: Millis): Promise<{ inserted: boolean }>;
  /**
   * Many at once, in order, in set-based statements: each as `appendMessageEvent` called in turn
   * (a repeat of an earlier one in the list is not inserted).
   */
  appendMessageEvents(events: readonly MessageEventInput[], now: Millis): Promise<boolean[]>;
  appendDecisions(entries: readonly DecisionAuditInput[]): Promise<void>;
  /** Id of the newest message event (0 when none): lets callers skip work when nothing arrived. */
  latestMessageEventId(): Promise<number>;
  /**
   * Final events (delivered, read, failed) of campaign messages' first attempts with an id above
   * `afterEventId`, among the newest RECENT_EVENTS of all, oldest first: what the breaker adds to
   * its windows. Where ids can become visible out of order (PostgreSQL) it also returns events
   * shortly below `afterEventId`, so one committed late is not missed: callers ignore repeats.
   */
  campaignOutcomesAfter(afterEventId: number): Promise<CampaignOutcome[]>;
}
