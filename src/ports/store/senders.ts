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
/**
 * What Meta says of a number when Pacer reads it (`pacer sender sync`), and where it belongs: its
 * WhatsApp Business Account and business portfolio (whose numbers share one messaging limit).
 */
export interface SenderProfile {
  businessAccountId: string | null;
  /** Numbers with the same portfolio share the messaging limit; null: the number is its own. */
  portfolioId: string | null;
  verifiedName: string | null;
  /** Meta's `status` (CONNECTED, FLAGGED, RESTRICTED, BANNED…): see `metaStatusSends` for which send. */
  metaStatus: string | null;
  nameStatus: string | null;
  /** Meta's `throughput.level`: STANDARD (80/s) or HIGH (1,000/s). */
  throughputLevel: string | null;
  /** When Meta was last asked; null: never (known from configuration or webhooks only). */
  syncedAt: Millis | null;
}

export interface Sender extends SenderInput, SenderProfile {
  id: number;
  updatedAt: Millis;
}

/** The business numbers messages go from, with their quality, limits and state as they are now. */
export interface SenderStore {
  upsertSenders(senders: readonly SenderInput[], now: Millis): Promise<number[]>;
  getSender(phoneNumberId: string): Promise<Sender | null>;
  getSenderById(id: number): Promise<Sender | null>;
  listSenders(): Promise<Sender[]>;
  /** Records what Meta said of a known number, and its account and portfolio. */
  setSenderProfile(phoneNumberId: string, profile: SenderProfile): Promise<boolean>;
  setSenderState(phoneNumberId: string, state: SenderState, reason: string | null, until: Millis | null, now: Millis): Promise<boolean>;
}
