import type { ErrorClass } from './error-class.js';
import { classifyCode, ERROR_CATALOGUE, findErrorByCode } from './error-catalogue/index.js';
import type { RetryRule } from './error-entry.js';
import { DEFAULT_POLICY, type BackoffPolicy, type Policy } from './policy.js';
import { SECOND, type Millis } from './time.js';

/** What happens to one outbox message after Meta refused or failed it. */
export type RetryPlan =
  | { kind: 'retry_at'; at: Millis; why: string } // try this message again at a time
  | { kind: 'redecide'; why: string } // ask `decide` again: contact state (cool-off) now sets the time
  | { kind: 'hold_for_window'; why: string } // wait until the contact writes in
  | { kind: 'reroute_cloud'; why: string } // resend at once through /messages
  | { kind: 'park'; why: string } // the template is paused: looked at again later, when Meta may have lifted it
  | { kind: 'hold_for_operator'; why: string } // the number or account must be fixed: waits, no retry time
  | { kind: 'give_up'; outcome: 'failed' | 'capped_exhausted'; why: string };

export interface AttemptHistory {
  /** Failures of this message so far, this one included. */
  failures: number;
  /** Of those, per-user cap failures (131049 or configured cap codes). */
  capFailures: number;
}

/**
 * The retry rule of the error catalogue applied to one failure. `jitter` is a number in [0, 1)
 * from the caller's seeded random source, so schedules stay reproducible in tests.
 */
export function planRetry(code: number, failedAt: Millis, history: AttemptHistory, policy: Policy, jitter: number): RetryPlan {
  const cls = classifyCode(code, policy.capCodes);
  const entry = findErrorByCode(code);
  const rule: RetryRule = cls === 'per_user_marketing_cap' ? { kind: 'cap_cool_off' } : (entry?.retry ?? unknownRule(cls));
  switch (rule.kind) {
    case 'never':
      return { kind: 'give_up', outcome: 'failed', why: `Code ${code} fails the same way on every attempt.` };
    case 'cap_cool_off':
      if (history.capFailures >= policy.capRetry.maxAttemptsPerMessage) {
        return {
          kind: 'give_up',
          outcome: 'capped_exhausted',
          why: `Per-user cap hit ${history.capFailures} times; this message stops here, the contact stays eligible.`,
        };
      }
      return { kind: 'redecide', why: 'Per-user marketing cap: the contact cools off and the message waits for it.' };
    case 'when_window_opens':
      return { kind: 'hold_for_window', why: 'Sendable only while the contact has an open window.' };
    case 'backoff':
      return backoff(rule.schedule, failedAt, history.failures, policy, jitter);
    case 'after_operator_fix':
      return afterOperatorFix(code, cls, entry?.effects.template === 'pause');
    case 'reroute_cloud':
      return { kind: 'reroute_cloud', why: 'The Marketing Messages API refused this message; it goes through the Cloud API instead.' };
  }
}

/**
 * Nothing a retry can change: a paused template is looked at again (Meta lifts pauses); a message
 * refused for its number or account waits for the operator's fix and a resume, with no retry time;
 * one refused for its template or payload fails here, as every message built the same way would.
 */
function afterOperatorFix(code: number, cls: ErrorClass, templatePaused: boolean): RetryPlan {
  if (templatePaused) return { kind: 'park', why: `Code ${code}: the template is paused; Pacer looks again later.` };
  if (cls === 'account_problem' || cls === 'auth_permission') {
    return { kind: 'hold_for_operator', why: `Code ${code}: the number or account must be fixed first; no retry is scheduled.` };
  }
  return {
    kind: 'give_up',
    outcome: 'failed',
    why: `Code ${code}: every message built this way fails until the template or request is fixed.`,
  };
}

function unknownRule(cls: ErrorClass): RetryRule {
  // An unknown code is retried a few times like a transient fault, never forever.
  return cls === 'unknown' ? { kind: 'backoff', schedule: 'transient' } : { kind: 'never' };
}

function backoff(
  schedule: 'transient' | 'pair_rate' | 'sender_throttle',
  failedAt: Millis,
  failures: number,
  policy: Policy,
  jitter: number,
): RetryPlan {
  const p: BackoffPolicy =
    schedule === 'transient' ? policy.transientBackoff : schedule === 'pair_rate' ? policy.pairRateBackoff : policy.senderBackoff;
  if (failures > p.maxAttempts) {
    return { kind: 'give_up', outcome: 'failed', why: `Still failing after ${p.maxAttempts} timed retries.` };
  }
  const n = Math.max(0, failures - 1);
  // Meta's advice for the pair rate is 4^n seconds; other schedules double with full jitter on top.
  const raw = schedule === 'pair_rate' ? Math.pow(4, n) * SECOND : p.baseMs * Math.pow(2, n) * (1 + jitter);
  const delay = Math.min(p.maxMs, Math.max(p.baseMs, raw));
  // Whole milliseconds, like every stored time; rounding up never retries earlier than planned.
  return { kind: 'retry_at', at: Math.ceil(failedAt + delay), why: `${schedule.replace('_', ' ')} backoff, retry ${failures}` };
}

/**
 * Every code whose message waits for an operator's fix (`hold_for_operator`): the rows a resume of
 * their campaign puts back in line. Ranges are listed code by code.
 */
export const OPERATOR_HOLD_CODES: readonly number[] = Object.freeze(
  ERROR_CATALOGUE.flatMap((e) => Array.from({ length: (e.codeTo ?? e.code) - e.code + 1 }, (_, i) => e.code + i)).filter(
    (code) => planRetry(code, 0, { failures: 1, capFailures: 0 }, DEFAULT_POLICY, 0).kind === 'hold_for_operator',
  ),
);
