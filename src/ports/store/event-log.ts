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

/** A campaign's latest final outcomes, for the breaker. */
export interface CampaignWindow {
  outcomes: number;
  caps: number;
  accountStops: number;
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
  campaignWindow(campaignId: number, limit: number, capCodes: readonly number[], stopCodes: readonly number[]): Promise<CampaignWindow>;
}
