import type { Millis } from '../../core/time.js';

/** Tokens from a bucket every process shares, e.g. one sender number's throughput. */
export interface PaceRequest {
  key: string;
  /** Whole tokens wanted now; the grant may be fewer, or none. */
  want: number;
  /** Refill rate: the number's messages per second. */
  perSecond: number;
  /** Most tokens a quiet bucket saves up: the largest burst any process may send at once. */
  burst: number;
  now: Millis;
}

export interface PaceGrant {
  granted: number;
  /** When the bucket will hold what was wanted (at most a burst, at least one token) again. */
  nextAt: Millis;
}

/** Token buckets every process shares, so workers together keep a number's throughput. */
export interface PaceStore {
  /** Takes send tokens from a bucket shared by every process (see PaceRequest). */
  takePace(request: PaceRequest): Promise<PaceGrant>;
  /** Gives back tokens taken but not spent; the bucket never exceeds `burst`. */
  returnPace(key: string, count: number, burst: number): Promise<void>;
}
