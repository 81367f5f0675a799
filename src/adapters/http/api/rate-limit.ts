import type { Clock } from '../../../ports/clock.js';

export interface RateLimitSettings {
  /** Tokens added back per second. */
  perSecond: number;
  /** Bucket size: how many requests may arrive at once. */
  burst: number;
}

export const DEFAULT_RATE_LIMIT: RateLimitSettings = { perSecond: 50, burst: 100 };

export type Admission = { ok: true } | { ok: false; retryAfterSeconds: number };

/**
 * One token bucket per API token, in memory: enough for a single server process. Time comes from the
 * clock, so tests drive refills without waiting. Buckets idle long enough to be full are dropped.
 */
export class RateLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    private readonly clock: Clock,
    private readonly settings: RateLimitSettings = DEFAULT_RATE_LIMIT,
  ) {}

  admit(key: string): Admission {
    const now = this.clock.now();
    const { perSecond, burst } = this.settings;
    const bucket = this.buckets.get(key) ?? { tokens: burst, at: now };
    bucket.tokens = Math.min(burst, bucket.tokens + (Math.max(0, now - bucket.at) / 1000) * perSecond);
    bucket.at = now;
    this.buckets.set(key, bucket);
    if (this.buckets.size > 10_000) this.prune(now);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return { ok: true };
    }
    return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - bucket.tokens) / perSecond)) };
  }

  private prune(now: number): void {
    const fullAfter = (this.settings.burst / this.settings.perSecond) * 1000;
    for (const [key, b] of this.buckets) if (now - b.at >= fullAfter) this.buckets.delete(key);
  }
}
