import type { Millis } from '../../core/time.js';
import type { Scheduler } from '../../ports/clock.js';
import type { SimTemplateConfig, SimulatorConfig } from './config.js';
import { unixSeconds, type OutEvent } from './payloads.js';
import { hash32 } from './prng.js';
import { FeedbackWindow, rate, type Rating } from './quality.js';

export type TemplateStatus = 'APPROVED' | 'PAUSED' | 'DISABLED';

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
  /** When each edit of it as an approved template was taken (Meta limits those: 1 per 24 h, 10 per 30 days). */
  approvedEdits: Millis[];
}

/**
 * One account's templates and their quality, driven by the feedback their messages earn. A
 * template that turns RED is paused (3 h, then 6 h) and disabled on the next time; each change is
 * announced with the webhook Meta uses for it.
 */
export class TemplateQuality {
  readonly templates: TemplateState[];

  /** `idScope` keeps template ids apart between accounts; the first account's is empty. */
  constructor(
    private readonly config: SimulatorConfig,
    private readonly scheduler: Scheduler,
    private readonly emit: (event: OutEvent, at: Millis) => void,
    idScope = '',
  ) {
    this.templates = config.templates.map((t) => ({
      config: { ...t }, // its own copy: the account may recategorise or edit it
      id: 1_000_000_000_000_000 + hash32(`${config.seed}:template:${idScope}${t.name}:${t.language}`),
      quality: 'GREEN',
      status: 'APPROVED',
      pausedUntil: null,
      pauses: 0,
      feedback: new FeedbackWindow(config.quality.windowMs),
      removed: false,
      approvedEdits: [],
    }));
  }

  template(name: string, language: string): TemplateState | undefined {
    return this.templates.find((t) => !t.removed && t.config.name === name && t.config.language === language);
  }

  byId(id: string): TemplateState | undefined {
    return this.templates.find((t) => !t.removed && String(t.id) === id);
  }

  negative(t: TemplateState, at: Millis, weight: number): void {
    t.feedback.negative(at, weight);
    this.evaluate(t, at);
  }

  private evaluate(t: TemplateState, now: Millis): void {
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
