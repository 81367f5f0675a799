import type { Millis } from '../../core/time.js';

/**
 * A token bucket: `capacity` tokens, refilled at one token per `intervalMs`. Bursts borrow from
 * the future, which is how Meta describes the pair rate limit (45 at once, then 1 per 6 s).
 */
export class TokenBucket {
  private tokens: number;
  private at: Millis;

  constructor(
    private readonly capacity: number,
    private readonly intervalMs: number,
    now: Millis,
  ) {
    this.tokens = capacity;
    this.at = now;
  }

  /** Takes one token if there is one. */
  take(now: Millis): boolean {
    this.refill(now);
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }

  /** Whether a token is there, without taking it. */
  has(now: Millis): boolean {
    this.refill(now);
    return this.tokens >= 1;
  }

  private refill(now: Millis): void {
    if (now > this.at) {
      this.tokens = Math.min(this.capacity, this.tokens + (now - this.at) / this.intervalMs);
      this.at = now;
    }
  }
}

export interface RateLimitConfig {
  pairIntervalMs: Millis;
  pairBurst: number;
  throughputMps: number;
}

/** Sender throughput (130429) and per-recipient pair rate (131056) of one business number. */
export class RateLimits {
  private readonly throughput: TokenBucket;
  private readonly pairs = new Map<string, TokenBucket>();

  constructor(
    private readonly config: RateLimitConfig,
    now: Millis,
  ) {
    this.throughput = new TokenBucket(config.throughputMps, 1000 / config.throughputMps, now);
  }

  /** Every request that reaches the number counts against its messages per second. */
  takeThroughput(now: Millis): boolean {
    return this.throughput.take(now);
  }

  pairAvailable(recipient: string, now: Millis): boolean {
    return this.pair(recipient, now).has(now);
  }

  /** Only messages the API accepts use the recipient's pair quota. */
  takePair(recipient: string, now: Millis): void {
    this.pair(recipient, now).take(now);
  }

  private pair(recipient: string, now: Millis): TokenBucket {
    let bucket = this.pairs.get(recipient);
    if (bucket === undefined) {
      bucket = new TokenBucket(this.config.pairBurst, this.config.pairIntervalMs, now);
      this.pairs.set(recipient, bucket);
    }
    return bucket;
  }
}
