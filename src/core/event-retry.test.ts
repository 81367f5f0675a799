import { describe, expect, it } from 'vitest';
import { afterFailedAttempt, DEFAULT_DELIVERY_RETRY, maxDeliveryAttempts, retryGap } from './event-retry.js';
import { DAY, HOUR, SECOND } from './time.js';

const T0 = Date.UTC(2026, 0, 5, 9, 0, 0);

describe('delivery retries', () => {
  it('double from 5 s up to 1 h', () => {
    const gaps = [1, 2, 3, 10, 11, 12, 80].map((n) => retryGap(n, DEFAULT_DELIVERY_RETRY));
    expect(gaps).toEqual([5 * SECOND, 10 * SECOND, 20 * SECOND, 2560 * SECOND, HOUR, HOUR, HOUR]);
    expect(retryGap(5000, DEFAULT_DELIVERY_RETRY)).toBe(HOUR);
  });

  it('give up once the gaps add up to three days (81 attempts by default)', () => {
    const n = maxDeliveryAttempts(DEFAULT_DELIVERY_RETRY);
    let total = 0;
    for (let i = 1; i < n; i++) total += retryGap(i, DEFAULT_DELIVERY_RETRY);
    expect(total).toBeLessThanOrEqual(3 * DAY);
    expect(total + retryGap(n, DEFAULT_DELIVERY_RETRY)).toBeGreaterThan(3 * DAY);
    expect(n).toBe(81);
    expect(afterFailedAttempt(n - 1, T0, DEFAULT_DELIVERY_RETRY, 0)).toEqual({ kind: 'retry', at: T0 + HOUR });
    expect(afterFailedAttempt(n, T0, DEFAULT_DELIVERY_RETRY, 0)).toEqual({ kind: 'give_up' });
  });

  it('take up to a quarter off a gap at random', () => {
    expect(afterFailedAttempt(1, T0, DEFAULT_DELIVERY_RETRY, 0)).toEqual({ kind: 'retry', at: T0 + 5000 });
    expect(afterFailedAttempt(1, T0, DEFAULT_DELIVERY_RETRY, 0.5)).toEqual({ kind: 'retry', at: T0 + 4375 });
    expect(afterFailedAttempt(1, T0, DEFAULT_DELIVERY_RETRY, 0.999_999)).toEqual({ kind: 'retry', at: T0 + 3750 });
  });

  it('follow other settings: a schedule shorter than its first gap tries once', () => {
    const quick = { firstMs: 10, maxMs: 40, giveUpAfterMs: 100 };
    expect([1, 2, 3, 4].map((n) => retryGap(n, quick))).toEqual([10, 20, 40, 40]);
    expect(maxDeliveryAttempts(quick)).toBe(4); // 10 + 20 + 40 = 70; another 40 would pass 100
    expect(maxDeliveryAttempts({ firstMs: HOUR, maxMs: HOUR, giveUpAfterMs: SECOND })).toBe(1);
  });
});
