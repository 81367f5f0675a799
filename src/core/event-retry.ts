import { DAY, HOUR, SECOND, type Millis } from './time.js';

/**
 * How a delivery that did not get a 2xx is tried again: gaps doubling from `firstMs` up to `maxMs`,
 * each shortened by up to a quarter at random (receivers coming back are not hit by every sender's
 * retries at the same instant), until the gaps add up to `giveUpAfterMs`; then it fails for good.
 * Counted in attempts, not from a start time, so a replayed delivery gets the whole schedule again.
 */
export interface DeliveryRetrySettings {
  firstMs: Millis;
  maxMs: Millis;
  giveUpAfterMs: Millis;
}

export const DEFAULT_DELIVERY_RETRY: DeliveryRetrySettings = Object.freeze({ firstMs: 5 * SECOND, maxMs: HOUR, giveUpAfterMs: 3 * DAY });

const JITTER = 0.25;

/** The nominal gap after the `failures`-th failed attempt (1-based). */
export function retryGap(failures: number, s: DeliveryRetrySettings): Millis {
  // 2^50 overflows no double; past the cap the exponent no longer matters.
  return Math.min(s.maxMs, s.firstMs * 2 ** Math.min(failures - 1, 50));
}

/** Attempts in all (the first included) before a delivery fails for good. */
export function maxDeliveryAttempts(s: DeliveryRetrySettings): number {
  let elapsed = 0;
  let attempts = 1;
  while (elapsed + retryGap(attempts, s) <= s.giveUpAfterMs) {
    elapsed += retryGap(attempts, s);
    attempts++;
  }
  return attempts;
}

export type AfterFailure = { kind: 'retry'; at: Millis } | { kind: 'give_up' };

/** After a failed attempt (`attempts` counts it): when to try again, or to give up. `random` in [0, 1). */
export function afterFailedAttempt(attempts: number, now: Millis, s: DeliveryRetrySettings, random: number): AfterFailure {
  if (attempts >= maxDeliveryAttempts(s)) return { kind: 'give_up' };
  const gap = retryGap(attempts, s);
  return { kind: 'retry', at: now + Math.max(1, Math.round(gap * (1 - JITTER * random))) };
}
