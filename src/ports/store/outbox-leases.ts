import type { Millis } from '../../core/time.js';
import type { OutboxOutcome } from './outbox.js';

export interface RescheduleInput {
  /** `held` rows keep `until` as a fallback wake-up time (e.g. the campaign's end), or null. */
  status: 'queued' | 'held';
  until: Millis | null;
  /** This attempt hit the per-user marketing cap: count it against the message's cap attempts. */
  capAttempt: boolean;
  errorCode: number | null;
}

/** One row's transition in a set-based call, with the time it happened. */
export interface IntentMove {
  id: number;
  now: Millis;
}
export interface AcceptedMove {
  id: number;
  wamid: string;
  now: Millis;
}
export interface RescheduleMove {
  id: number;
  input: RescheduleInput;
  now: Millis;
}
/** `complete` (errorCode null) or `fail` (outcome `failed`). */
export interface CompleteMove {
  id: number;
  outcome: OutboxOutcome;
  errorCode: number | null;
  now: Millis;
}

/** What the worker holding a row's lease does with it; each is false when the lease was lost. */
export interface OutboxLeaseStore {
  /** Before the HTTP call: counts the attempt. False when the lease was lost. */
  recordIntent(id: number, owner: string, now: Millis): Promise<boolean>;
  /** After Meta accepted the send. False when the lease was lost or a status webhook already settled the row. */
  recordAccepted(id: number, owner: string, wamid: string, now: Millis): Promise<boolean>;
  reschedule(id: number, owner: string, input: RescheduleInput, now: Millis): Promise<boolean>;
  /** Ends a row with a non-failure outcome (skipped, capped_exhausted, cancelled...). */
  complete(id: number, owner: string, outcome: OutboxOutcome, now: Millis): Promise<boolean>;
  fail(id: number, owner: string, errorCode: number | null, now: Millis): Promise<boolean>;
  /**
   * The same transitions for many rows of one owner, in a few set-based statements: each row moves
   * exactly as its one-row call would; returns the ids that moved (a row whose lease was lost is absent).
   */
  recordIntents(owner: string, moves: readonly IntentMove[]): Promise<number[]>;
  recordAcceptedMany(owner: string, moves: readonly AcceptedMove[]): Promise<number[]>;
  rescheduleMany(owner: string, moves: readonly RescheduleMove[]): Promise<number[]>;
  completeMany(owner: string, moves: readonly CompleteMove[]): Promise<number[]>;
}
