import type { Millis } from '../../core/time.js';
import type { SimulatorConfig } from './config.js';
import type { OutEvent } from './payloads.js';

export type Rating = 'GREEN' | 'YELLOW' | 'RED';

/** Delivered messages and weighted negative feedback over a rolling window. */
export class FeedbackWindow {
  private deliveries: Millis[] = [];
  private negatives: Array<{ at: Millis; weight: number }> = [];

  constructor(private readonly windowMs: Millis) {}

  delivered(at: Millis): void {
    this.deliveries.push(at);
  }

  negative(at: Millis, weight: number): void {
    this.negatives.push({ at, weight });
  }

  clear(): void {
    this.deliveries = [];
    this.negatives = [];
  }

  /** Negative weight per delivered message, with `minSample` as the smallest denominator. */
  ratio(now: Millis, minSample: number): number {
    const since = now - this.windowMs;
    this.deliveries = this.deliveries.filter((t) => t > since);
    this.negatives = this.negatives.filter((n) => n.at > since);
    const weight = this.negatives.reduce((sum, n) => sum + n.weight, 0);
    return weight / Math.max(this.deliveries.length, minSample);
  }
}

const RANK: Record<Rating, number> = { GREEN: 2, YELLOW: 1, RED: 0 };

/** How often deliveries re-rate a number whose rating is down (each look filters the window). */
const RECOVERY_CHECK_MS = 10 * 60_000;

export function rate(ratio: number, yellowAt: number, redAt: number): Rating {
  if (ratio >= redAt) return 'RED';
  if (ratio >= yellowAt) return 'YELLOW';
  return 'GREEN';
}

export function ratingRank(rating: Rating): number {
  return RANK[rating];
}

/**
 * One number's quality rating, driven by the blocks, reports and marketing stops its own messages
 * earn and by retry storms into capped users. Each change posts `phone_number_quality_update`
 * naming the number, with its portfolio's messaging limit.
 */
export class PhoneQuality {
  private readonly feedback: FeedbackWindow;
  private evaluatedAt: Millis = -Infinity;
  /** Feedback lowered the rating in this run: only then may deliveries raise it (a number set up YELLOW stays so). */
  private loweredByFeedback = false;
  /** The worst rating the number has had: a drop the rating later recovered from still happened. */
  lowest: Rating;

  constructor(
    public rating: Rating,
    private readonly config: SimulatorConfig['quality'],
    private readonly number: { displayPhoneNumber: string; messagingLimit: string },
    private readonly emit: (event: OutEvent, at: Millis) => void,
  ) {
    this.feedback = new FeedbackWindow(config.windowMs);
    this.lowest = rating;
  }

  /**
   * A lowered rating recovers as deliveries dilute the feedback and old feedback leaves the window, as
   * Meta's rating follows the last 7 days: so deliveries look again too, at most every few minutes.
   */
  delivered(at: Millis): void {
    this.feedback.delivered(at);
    if (this.loweredByFeedback && at - this.evaluatedAt >= RECOVERY_CHECK_MS) this.evaluate(at);
  }

  /** Records negative feedback; `evaluate` decides whether the rating moves. */
  record(at: Millis, weight: number): void {
    this.feedback.negative(at, weight);
  }

  evaluate(now: Millis): void {
    this.evaluatedAt = now;
    const q = this.config;
    const next = rate(this.feedback.ratio(now, q.minSample), q.yellowAt, q.redAt);
    if (next === this.rating) return;
    const worse = RANK[next] < RANK[this.rating];
    this.rating = next;
    this.loweredByFeedback = next !== 'GREEN' && (worse || this.loweredByFeedback);
    if (RANK[next] < RANK[this.lowest]) this.lowest = next;
    this.emit(
      {
        kind: 'account',
        field: 'phone_number_quality_update',
        value: {
          display_phone_number: this.number.displayPhoneNumber,
          event: worse ? 'FLAGGED' : 'UNFLAGGED',
          // `current_limit` went in February 2026; the portfolio limit is all that remains.
          max_daily_conversations_per_business: this.number.messagingLimit,
        },
        at: now,
      },
      now,
    );
  }
}
