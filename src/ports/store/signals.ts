import type { Millis } from '../../core/time.js';

/** One account-level webhook signal: what it is about, its own event time, and what it says. */
export interface SignalClaim {
  /** What the signal sets, e.g. `template_status promo en`: signals about one subject are ordered. */
  subject: string;
  /** The event's own time (Meta's `entry[].time`), not when it arrived. */
  at: Millis;
  /** Everything the signal says, as text: the same signal delivered twice has the same fingerprint. */
  fingerprint: string;
}

/**
 * Template, quality, number and account signals are facts that later ones replace: Meta delivers them
 * at least once and in no set order, so each is claimed before it is applied.
 */
export interface SignalStore {
  /**
   * True when the signal is to be applied: none newer about its subject was applied, nor this very
   * one. False for an older or a redelivered signal, which then changes nothing. Joins the caller's
   * transaction, so a payload rolled back leaves its signals unclaimed.
   */
  claimSignal(signal: SignalClaim, now: Millis): Promise<boolean>;
}
