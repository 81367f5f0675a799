import type { Category } from '../../core/category.js';
import type { ConsentStatus, DeliveryStatus } from '../../core/contact-event.js';
import type { Millis } from '../../core/time.js';
import type { DecisionAuditInput } from './event-log.js';

export type TimelineEntry =
  | { type: 'consent'; at: Millis; category: Category; status: ConsentStatus; source: string }
  | { type: 'decision'; at: Millis; outboxId: number | null; kind: DecisionAuditInput['kind']; reason: string; explanation: string }
  | { type: 'message_event'; at: Millis; outboxId: number; wamid: string; status: DeliveryStatus; errorCode: number | null };

/** A message a contact sent us (a reply), kept for the conversation view and the funnel. */
export interface InboundMessageInput {
  contactId: number;
  wamid: string;
  /** Meta's message type: `text`, `button`, `interactive`, `image`... */
  type: string;
  /** The text, button title or caption; null for content without any. */
  text: string | null;
  at: Millis;
  /** The business number it was written to (`metadata.phone_number_id`); null when not known. */
  phoneNumberId?: string | null;
}
export interface InboundMessage extends InboundMessageInput {
  id: number;
}

/** One contact's story for operators: consent changes, decisions, statuses, and what they wrote. */
export interface ContactHistoryStore {
  /** Newest first. */
  contactTimeline(contactId: number, limit: number): Promise<TimelineEntry[]>;
  /** False when this wamid was already recorded. */
  recordInbound(message: InboundMessageInput, now: Millis): Promise<{ inserted: boolean }>;
  /** Newest first. */
  contactInbound(contactId: number, limit: number): Promise<InboundMessage[]>;
}
