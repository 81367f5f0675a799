import type { Millis } from '../../core/time.js';

export type SenderState = 'ok' | 'throttled' | 'stopped';
export interface SenderInput {
  phoneNumberId: string;
  displayNumber: string;
  qualityRating: string | null;
  /** Messages per second the number may send. */
  throughputMps: number;
  messagingLimitTier: string | null;
  state: SenderState;
  stateReason: string | null;
  /** For `throttled`: when sending may resume. */
  stateUntil: Millis | null;
}
export interface Sender extends SenderInput {
  id: number;
  updatedAt: Millis;
}

/** The business numbers messages go from, with their quality, limits and state as they are now. */
export interface SenderStore {
  upsertSenders(senders: readonly SenderInput[], now: Millis): Promise<number[]>;
  getSender(phoneNumberId: string): Promise<Sender | null>;
  getSenderById(id: number): Promise<Sender | null>;
  listSenders(): Promise<Sender[]>;
  setSenderState(phoneNumberId: string, state: SenderState, reason: string | null, until: Millis | null, now: Millis): Promise<boolean>;
}
