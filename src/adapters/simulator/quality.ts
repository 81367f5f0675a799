import type { Millis } from '../../core/time.js';
import type { Scheduler } from '../../ports/clock.js';
import type { SimTemplateConfig, SimulatorConfig } from './config.js';
import { unixSeconds, type OutEvent } from './payloads.js';
import { hash32 } from './prng.js';

export type Rating = 'GREEN' | 'YELLOW' | 'RED';
export type TemplateStatus = 'APPROVED' | 'PAUSED' | 'DISABLED';

/** Delivered messages and weighted negative feedback over a rolling window. */
class FeedbackWindow {
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

export interface TemplateState {
  config: SimTemplateConfig;
  id: number;
  quality: Rating;
  status: TemplateStatus;
  pausedUntil: Millis | null;
  pauses: number;
  feedback: FeedbackWindow;
  /** Deleted from the account: no longer listed, fetched or sendable. */
  removed: boolean;
}

const RANK: Record<Rating, number> = { GREEN: 2, YELLOW: 1, RED: 0 };

function rate(ratio: number, yellowAt: number, redAt: number): Rating {
  if (ratio >= redAt) return 'RED';
  if (ratio >= yellowAt) return 'YELLOW';
  return 'GREEN';
}

/**
 * The number's quality rating and each template's quality, driven by blocks, reports, marketing
 * stops and retry storms into capped users. A template that turns RED is paused (3 h, then 6 h)
 * and disabled on the next time; each change is announced with the webhook Meta uses for it.
 */
export class QualityModel {
  rating: Rating = 'GREEN';
  readonly templates: TemplateState[];
  private readonly phone: FeedbackWindow;

  constructor(
    private readonly config: SimulatorConfig,
    private readonly scheduler: Scheduler,
    private readonly emit: (event: OutEvent, at: Millis) => void,
  ) {
    this.phone = new FeedbackWindow(config.quality.windowMs);
    this.templates = config.templates.map((t) => ({
      config: { ...t }, // its own copy: the account may recategorise or edit it
      id: 1_000_000_000_000_000 + hash32(`${config.seed}:template:${t.name}:${t.language}`),
      quality: 'GREEN',
      status: 'APPROVED',
      pausedUntil: null,
      pauses: 0,
      feedback: new FeedbackWindow(config.quality.windowMs),
      removed: false,
    }));
  }

  template(name: string, language: string): TemplateState | undefined {
    return this.templates.find((t) => !t.removed && t.config.name === name && t.config.language === language);
  }

  delivered(template: TemplateState | null, at: Millis): void {
    this.phone.delivered(at);
    template?.feedback.delivered(at);
  }

  /** Blocks (1), reports (2), marketing stops (0.5) count against the number and the template. */
  negative(template: TemplateState | null, at: Millis, weight: number): void {
    this.phone.negative(at, weight);
    if (template !== null) {
      template.feedback.negative(at, weight);
      this.evaluateTemplate(template, at);
    }
    this.evaluatePhone(at);
  }

  /** A signal that only the number's rating sees (retries into a capped user). */
  signal(at: Millis, weight: number): void {
    this.phone.negative(at, weight);
    this.evaluatePhone(at);
  }

  private evaluatePhone(now: Millis): void {
    const q = this.config.quality;
    const next = rate(this.phone.ratio(now, q.minSample), q.yellowAt, q.redAt);
    if (next === this.rating) return;
    const worse = RANK[next] < RANK[this.rating];
    this.rating = next;
    const tier = q.messagingTier;
    this.emit(
      {
        kind: 'account',
        field: 'phone_number_quality_update',
        value: {
          display_phone_number: this.config.displayPhoneNumber,
          event: worse ? 'FLAGGED' : 'UNFLAGGED',
          // `current_limit` went in February 2026; the portfolio limit is all that remains.
          max_daily_conversations_per_business: tier,
        },
        at: now,
      },
      now,
    );
  }

  private evaluateTemplate(t: TemplateState, now: Millis): void {
    const q = this.config.quality.template;
    const next = rate(t.feedback.ratio(now, q.minSample), q.yellowAt, q.redAt);
    if (next === t.quality) return;
    this.emit(
      {
        kind: 'account',
        field: 'message_template_quality_update',
        value: {
          previous_quality_score: t.quality,
          new_quality_score: next,
          message_template_id: t.id,
          message_template_name: t.config.name,
          message_template_language: t.config.language,
        },
        at: now,
      },
      now,
    );
    t.quality = next;
    if (next === 'RED' && t.status === 'APPROVED') this.pause(t, now);
  }

  private pause(t: TemplateState, now: Millis): void {
    t.pauses++;
    const pauseMs = this.config.quality.template.pauseMs[t.pauses - 1];
    if (pauseMs === undefined) {
      t.status = 'DISABLED';
      t.pausedUntil = null;
      this.statusUpdate(t, 'DISABLED', 'DISABLED', 'Paused too many times for low quality; disabled.', now, {
        disable_info: { disable_date: unixSeconds(now) },
      });
      return;
    }
    t.status = 'PAUSED';
    t.pausedUntil = now + pauseMs;
    const title = t.pauses === 1 ? 'FIRST_PAUSE' : 'SECOND_PAUSE';
    this.statusUpdate(t, 'PAUSED', title, `Paused for ${pauseMs / 3_600_000} hours because of low quality.`, now);
    this.scheduler.at(t.pausedUntil, () => {
      if (t.status !== 'PAUSED') return;
      t.status = 'APPROVED';
      t.pausedUntil = null;
      t.feedback.clear(); // a fresh start: old feedback must not pause it again at once
      this.statusUpdate(t, 'REINSTATED', 'UNPAUSE', 'The pause ended; the template can be sent again.', this.scheduler.now());
    });
  }

  private statusUpdate(
    t: TemplateState,
    event: string,
    title: string,
    description: string,
    now: Millis,
    extra: Record<string, unknown> = {},
  ): void {
    this.emit(
      {
        kind: 'account',
        field: 'message_template_status_update',
        value: {
          event,
          message_template_id: t.id,
          message_template_name: t.config.name,
          message_template_language: t.config.language,
          reason: 'NONE',
          message_template_category: t.config.category,
          other_info: { title, description },
          ...extra,
        },
        at: now,
      },
      now,
    );
  }
}

export function ratingRank(rating: Rating): number {
  return RANK[rating];
}
