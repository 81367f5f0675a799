import { describe, expect, it } from 'vitest';
import { DEFAULT_POLICY } from './policy.js';
import { planRetry } from './retry-plan.js';
import { SECOND } from './time.js';

const P = DEFAULT_POLICY;
const at = 1_000_000;

describe('planRetry', () => {
  it('hands a per-user cap back to decide until the attempts run out', () => {
    expect(planRetry(131049, at, { failures: 1, capFailures: 1 }, P, 0).kind).toBe('redecide');
    expect(planRetry(131049, at, { failures: 3, capFailures: 3 }, P, 0)).toMatchObject({ kind: 'give_up', outcome: 'capped_exhausted' });
  });

  it('never retries codes that fail the same way every time', () => {
    for (const code of [131050, 131026, 131047, 132016]) {
      expect(planRetry(code, at, { failures: 1, capFailures: 0 }, P, 0)).toMatchObject({ kind: 'give_up', outcome: 'failed' });
    }
  });

  it('holds 130472 for a window and reroutes a Marketing Messages API refusal', () => {
    expect(planRetry(130472, at, { failures: 1, capFailures: 0 }, P, 0).kind).toBe('hold_for_window');
    expect(planRetry(131055, at, { failures: 1, capFailures: 0 }, P, 0).kind).toBe('reroute_cloud');
  });

  it('waits 4^n seconds after a pair-rate error', () => {
    const delays = [1, 2, 3, 4].map((n) => {
      const p = planRetry(131056, at, { failures: n, capFailures: 0 }, P, 0);
      return p.kind === 'retry_at' ? (p.at - at) / SECOND : NaN;
    });
    expect(delays).toEqual([1, 4, 16, 64]);
  });

  it('backs off transient faults exponentially with jitter, bounded, then gives up', () => {
    const d = (n: number, jitter: number) => {
      const p = planRetry(131016, at, { failures: n, capFailures: 0 }, P, jitter);
      return p.kind === 'retry_at' ? p.at - at : -1;
    };
    expect(d(1, 0)).toBe(2 * SECOND);
    expect(d(2, 0)).toBe(4 * SECOND);
    expect(d(2, 0.5)).toBe(6 * SECOND);
    expect(d(20, 0.9)).toBe(-1);
    expect(d(8, 0.9)).toBeLessThanOrEqual(P.transientBackoff.maxMs);
  });

  it('schedules no retry for what only an operator can fix', () => {
    // The template or the payload: the message fails, as every message built this way would.
    for (const code of [132000, 132001, 132012, 132018]) {
      expect(planRetry(code, at, { failures: 1, capFailures: 0 }, P, 0)).toMatchObject({ kind: 'give_up', outcome: 'failed' });
    }
    // The number or the account: the message itself is fine and waits for the fix, with no time set.
    for (const code of [0, 190, 131031, 133010])
      expect(planRetry(code, at, { failures: 1, capFailures: 0 }, P, 0).kind).toBe('hold_for_operator');
    // A paused template is looked at again: Meta lifts pauses.
    expect(planRetry(132015, at, { failures: 1, capFailures: 0 }, P, 0).kind).toBe('park');
  });

  it('retries an unknown code a bounded number of times', () => {
    expect(planRetry(987654, at, { failures: 1, capFailures: 0 }, P, 0).kind).toBe('retry_at');
    expect(planRetry(987654, at, { failures: 50, capFailures: 0 }, P, 0).kind).toBe('give_up');
  });
});
