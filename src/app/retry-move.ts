import type { RetryPlan } from '../core/retry-plan.js';
import type { Millis } from '../core/time.js';
import type { RescheduleInput } from '../ports/store.js';

/** Where a failed row goes next: back in line (queued or held) at a time, or ended. */
export type RetryMove =
  | {
      kind: 'reschedule';
      input: RescheduleInput;
      /** A held row waits for the contact's window, or for an operator's fix (and a resume). */
      heldFor?: 'window' | 'operator';
    }
  | { kind: 'end'; outcome: 'failed' | 'capped_exhausted'; errorCode: number | null };

/**
 * One reading of a retry plan for both places a failure is learnt: the send's own answer and a
 * failed status webhook. `coolOffUntil` is the contact's cool-off after the failure was applied;
 * parked rows (template or account problems) are looked at again after `parkMs` (the policy's
 * `blockedRecheckMs`), breakers pausing their campaign meanwhile.
 */
export function retryMove(plan: RetryPlan, now: Millis, coolOffUntil: Millis | null, errorCode: number | null, parkMs: Millis): RetryMove {
  const later = (status: 'queued' | 'held', until: Millis | null, capAttempt = false, heldFor?: 'window' | 'operator'): RetryMove => ({
    kind: 'reschedule',
    input: { status, until, capAttempt, errorCode },
    ...(heldFor === undefined ? {} : { heldFor }),
  });
  switch (plan.kind) {
    case 'redecide':
      return later('queued', coolOffUntil ?? now, true);
    case 'retry_at':
      return later('queued', plan.at);
    case 'reroute_cloud':
      return later('queued', now);
    case 'park':
      return later('queued', now + parkMs);
    case 'hold_for_window':
      return later('held', null, false, 'window');
    case 'hold_for_operator':
      return later('held', null, false, 'operator');
    case 'give_up':
      return { kind: 'end', outcome: plan.outcome, errorCode };
  }
}
