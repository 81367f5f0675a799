import type { Category } from './category.js';
import type { Millis } from './time.js';

/**
 * What a diagnosis reads: the sends of one scope (a campaign, or all traffic since a time) and
 * what came back for them, counted by the store. Counts are of messages (outbox rows) unless named
 * `recipients` (distinct contacts) or `attempts` (each send of a row, retries included).
 */
export interface DiagnosisFacts {
  since: Millis;
  until: Millis;
  /** The campaign diagnosed, or null for all traffic in the window. */
  campaign: { id: number; name: string; template: string } | null;
  sends: { messages: number; recipients: number; attempts: number };
  /** Per error code: messages that failed with it at least once, and their recipients. */
  failures: readonly CodeCount[];
  /** Recipients with at least one failure, and how the failed attempts spread over them. */
  failing: { recipients: number; attempts: number; repeated: number; worst: number };
  templates: readonly TemplateUsage[];
  /** Per campaign (its segment); empty for a one-campaign scope. */
  campaigns: readonly CampaignUsage[];
  /** Marketing consent of the affected audience (recipients that failed; all recipients when none did). */
  consent: ConsentMix;
  engagement: Engagement;
  volume: { attempts: number; days: number; baselineAttempts: number; baselineDays: number };
  senders: readonly SenderSignal[];
  /** The scope's messages per number they went from, most failures first: where a wave of failures belongs. */
  numbers: readonly NumberSends[];
  /** Changes of the senders' quality, limit or state within the window, oldest first. */
  senderEvents: readonly SenderEvent[];
  /** Campaigns paused within the window, with the reason the breaker or Meta's signal gave. */
  pauses: readonly { campaignId: number; name: string; reason: string }[];
}

/** What one sender number sent in the scope and how much of it failed. */
export interface NumberSends {
  phoneNumberId: string;
  messages: number;
  /** Messages that failed with any code at least once. */
  failed: number;
  /** The code most of its failures had; null when none failed. */
  topCode: number | null;
}

export interface CodeCount {
  code: number;
  messages: number;
  recipients: number;
}

/** What one group of the scope's messages (a template, or a campaign) did. */
export interface Usage {
  label: string;
  category: Category;
  messages: number;
  recipients: number;
  delivered: number;
  read: number;
  /** Messages that failed with any code, and with a per-user cap code. */
  failed: number;
  capped: number;
  /** Recipients who stopped marketing (131050, preference, button or keyword) after one of these messages. */
  stopped: number;
  /** Block proxy: accepted but never delivered while the recipient received other messages. */
  silent: number;
}

/** One template's sends in the window; one-off free-form messages count under their category. */
export interface TemplateUsage extends Usage {
  templateId: number | null;
  status: string | null;
  quality: string | null;
}

/** One campaign's sends in the window: how its segment received them. */
export interface CampaignUsage extends Usage {
  campaignId: number;
}

export interface ConsentMix {
  recipients: number;
  granted: number;
  revoked: number;
  unknown: number;
  sources: readonly { source: string; recipients: number }[];
}

export interface Engagement {
  delivered: number;
  read: number;
  /** Recipients who wrote to us (opened a window) within the window. */
  replied: number;
  /** Recipients who stopped marketing within the window, by how (`user_preferences`, `131050`, `keyword`, `button`). */
  stopped: number;
  stopKinds: readonly { kind: string; recipients: number }[];
  silent: number;
}

export interface SenderSignal {
  /** Meta's phone-number id (an id, not a phone number). */
  phoneNumberId: string;
  quality: string | null;
  state: 'ok' | 'throttled' | 'stopped';
  reason: string | null;
}

/** One recorded change of a sender: what Meta's signal (`source`, e.g. `phone_quality FLAGGED`) set. */
export interface SenderEvent {
  phoneNumberId: string;
  at: Millis;
  source: string;
  quality: string | null;
  state: 'ok' | 'throttled' | 'stopped';
  reason: string | null;
}

/** Where a diagnosis draws its lines; each number is a judgement, documented so it can be tuned. */
export interface DiagnoseThresholds {
  /** Fewer messages than this in scope, and no account signal: too little to judge. */
  minMessages: number;
  /** A template needs this many messages before its rates are compared. */
  minTemplateMessages: number;
  /** Share of a template's recipients who stopped marketing that marks it as unwanted. */
  stopRate: number;
  /** Share of a template's messages that look blocked (accepted, never delivered). */
  silentRate: number;
  /** A template's cap rate this many times the rest's (and at least `capRateFloor`) stands out. */
  capExcess: number;
  capRateFloor: number;
  /** Reads per delivered marketing message below this is poor engagement. */
  lowReadRate: number;
  /** A recipient failing this many times counts as failing repeatedly. */
  repeatedFailures: number;
  /** Daily sends this many times the baseline is a volume spike. */
  volumeSpike: number;
  /** Below this share of granted marketing consent in the affected audience, consent is suspect. */
  grantedShare: number;
}

export const DEFAULT_DIAGNOSE_THRESHOLDS: DiagnoseThresholds = Object.freeze({
  minMessages: 20,
  minTemplateMessages: 20,
  stopRate: 0.05,
  silentRate: 0.05,
  capExcess: 2,
  capRateFloor: 0.3,
  lowReadRate: 0.1,
  repeatedFailures: 3,
  volumeSpike: 3,
  grantedShare: 0.8,
});
