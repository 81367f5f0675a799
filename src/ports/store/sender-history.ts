import type { Millis } from '../../core/time.js';
import type { SenderState } from './senders.js';

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
export interface SenderChange extends SenderChangeInput {
  id: number;
}

/** What the senders row no longer shows: how a number's quality, limit and restrictions changed. */
export interface SenderHistoryStore {
  /** Appends to a sender's history (the senders row keeps only the latest values). */
  recordSenderChange(change: SenderChangeInput): Promise<void>;
  /** A sender's changes since `since`, oldest first, at most `limit` (the latest ones). */
  senderChanges(senderId: number, since: Millis, limit: number): Promise<SenderChange[]>;
}
