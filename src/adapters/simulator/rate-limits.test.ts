import { describe, expect, it } from 'vitest';
import { RateLimits, TokenBucket } from './rate-limits.js';

describe('TokenBucket', () => {
  it('allows a burst, then one token per interval, never more than its capacity', () => {
    const bucket = new TokenBucket(3, 1_000, 0);
    expect([bucket.take(0), bucket.take(0), bucket.take(0), bucket.take(0)]).toEqual([true, true, true, false]);
    expect(bucket.take(999)).toBe(false);
    expect(bucket.take(1_000)).toBe(true);
    expect([bucket.take(100_000), bucket.take(100_000), bucket.take(100_000), bucket.take(100_000)]).toEqual([true, true, true, false]);
  });
});

describe('RateLimits', () => {
  it('keeps a pair quota per recipient: a burst of 45, then one every 6 s', () => {
    const limits = new RateLimits({ pairIntervalMs: 6_000, pairBurst: 45, throughputMps: 1_000 }, 0);
    for (let i = 0; i < 45; i++) {
      expect(limits.pairAvailable('a', 0)).toBe(true);
      limits.takePair('a', 0);
    }
    expect(limits.pairAvailable('a', 0)).toBe(false);
    expect(limits.pairAvailable('b', 0)).toBe(true);
    expect(limits.pairAvailable('a', 5_999)).toBe(false);
    expect(limits.pairAvailable('a', 6_000)).toBe(true);
  });

  it('allows 80 requests in a second from the number by default', () => {
    const limits = new RateLimits({ pairIntervalMs: 6_000, pairBurst: 45, throughputMps: 80 }, 0);
    const taken = Array.from({ length: 100 }, () => limits.takeThroughput(0)).filter(Boolean).length;
    expect(taken).toBe(80);
    expect(limits.takeThroughput(12)).toBe(false);
    expect(limits.takeThroughput(13)).toBe(true); // one token every 12.5 ms
  });
});
