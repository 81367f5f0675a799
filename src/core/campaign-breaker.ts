import type { TemplateStatus } from './decision.js';

/** What a running campaign has seen recently, counted over a sliding window of its latest outcomes. */
export interface BreakerWindow {
  /** Final outcomes in the window (delivered, read, failed with any code). */
  outcomes: number;
  /** Of those, per-user cap failures (131049). */
  caps: number;
  /** Spam-limit refusals (131048) and other account-level stops seen in the window. */
  accountStops: number;
}

export interface BreakerSignals {
  window: BreakerWindow;
  template: { status: TemplateStatus; quality: string | null };
  sender: { quality: string | null; previousQuality: string | null; state: 'ok' | 'throttled' | 'stopped'; stateReason: string | null };
  /** The account has an active restriction (account_update ACCOUNT_RESTRICTION). */
  accountRestricted: boolean;
}

export interface BreakerConfig {
  /** Trip when the cap share over the window exceeds this (0..1)... */
  maxCapShare: number;
  /** ...and the window holds at least this many outcomes, so a handful of caps cannot trip it. */
  minOutcomes: number;
  /** Pause the campaign when the template's quality reaches RED, before Meta pauses it. */
  pauseOnRedTemplate: boolean;
  /** Pause when the number's quality drops (GREEN→YELLOW, →RED). */
  pauseOnQualityDrop: boolean;
}

export const DEFAULT_BREAKER: BreakerConfig = { maxCapShare: 0.3, minOutcomes: 200, pauseOnRedTemplate: true, pauseOnQualityDrop: true };

export type BreakerReason =
  'cap_share' | 'template_paused' | 'template_red' | 'quality_drop' | 'account_restricted' | 'spam_limit' | 'sender_stopped';

export type BreakerVerdict = { trip: false } | { trip: true; reason: BreakerReason; explanation: string };

const QUALITY_RANK: Record<string, number> = { GREEN: 3, HIGH: 3, YELLOW: 2, MEDIUM: 2, RED: 1, LOW: 1 };

/**
 * Should this campaign pause now? Checked after every batch of outcomes; a trip pauses the campaign
 * with the reason shown, and only an operator resumes it. Pure.
 */
export function evaluateBreaker(s: BreakerSignals, config: BreakerConfig = DEFAULT_BREAKER): BreakerVerdict {
  if (s.accountRestricted)
    return trip('account_restricted', 'Meta restricted business-initiated messaging on this account; marketing would only be refused.');
  if (s.window.accountStops > 0)
    return trip(
      'spam_limit',
      'Meta refused sends for spam limits (131048) or an account problem; sending more would harm the number further.',
    );
  if (s.sender.state === 'stopped')
    return trip('sender_stopped', `The sender number is stopped: ${s.sender.stateReason ?? 'awaiting an operator'}.`);
  if (s.template.status === 'paused' || s.template.status === 'disabled') {
    return trip('template_paused', `Meta ${s.template.status} this template for low quality; fix or replace it before resuming.`);
  }
  if (config.pauseOnRedTemplate && s.template.quality === 'RED') {
    return trip(
      'template_red',
      "The template's quality rating is RED: recipients are blocking or reporting it. Pausing now avoids Meta pausing it and lowering the number's rating.",
    );
  }
  const now = QUALITY_RANK[s.sender.quality ?? ''];
  const before = QUALITY_RANK[s.sender.previousQuality ?? ''];
  if (config.pauseOnQualityDrop && now !== undefined && before !== undefined && now < before) {
    return trip(
      'quality_drop',
      `The number's quality rating dropped from ${s.sender.previousQuality} to ${s.sender.quality}; review the audience and template before resuming.`,
    );
  }
  const { outcomes, caps } = s.window;
  if (outcomes >= config.minOutcomes && caps / outcomes > config.maxCapShare) {
    const pct = Math.round((100 * caps) / outcomes);
    return trip(
      'cap_share',
      `${pct}% of the last ${outcomes} outcomes hit WhatsApp's per-user marketing cap (limit ${Math.round(config.maxCapShare * 100)}%). The audience is saturated with marketing right now; narrow the segment or wait before resuming.`,
    );
  }
  return { trip: false };
}

function trip(reason: BreakerReason, explanation: string): BreakerVerdict {
  return { trip: true, reason, explanation };
}
