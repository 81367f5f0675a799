import { describe, expect, it } from 'vitest';
import { RateLimiter } from './rate-limit.js';

function clockAt(start: number) {
  const clock = { t: start, now: () => clock.t };
  return clock;
}

describe('RateLimiter', () => {
  it('admits a burst, then refuses with the seconds until one request fits again', () => {
    const clock = clockAt(0);
    const limiter = new RateLimiter(clock, { perSecond: 2, burst: 3 });
    expect([1, 2, 3].map(() => limiter.admit('a').ok)).toEqual([true, true, true]);
    expect(limiter.admit('a')).toEqual({ ok: false, retryAfterSeconds: 1 });
    clock.t += 500;
    expect(limiter.admit('a').ok).toBe(true);
    expect(limiter.admit('a').ok).toBe(false);
  });

  it('keeps one bucket per key and never fills past the burst', () => {
    const clock = clockAt(0);
    const limiter = new RateLimiter(clock, { perSecond: 1, burst: 2 });
    limiter.admit('a');
    limiter.admit('a');
    expect(limiter.admit('a').ok).toBe(false);
    expect(limiter.admit('b').ok).toBe(true);
    clock.t += 60_000;
    expect([1, 2, 3].map(() => limiter.admit('a').ok)).toEqual([true, true, false]);
  });

  it('asks a slow bucket to wait several seconds', () => {
    const limiter = new RateLimiter(clockAt(0), { perSecond: 0.25, burst: 1 });
    limiter.admit('a');
    expect(limiter.admit('a')).toEqual({ ok: false, retryAfterSeconds: 4 });
  });
});
