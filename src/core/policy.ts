import { DEFAULT_BREAKER, type BreakerConfig } from './campaign-breaker.js';
import type { Category } from './category.js';
import { DAY, HOUR, MINUTE, SECOND, type Millis } from './time.js';

/** How marketing reaches Meta: always /messages, always /marketing_messages, or the latter once after a cap. */
export type MarketingPath = 'cloud' | 'marketing_messages' | 'marketing_messages_after_cap';

export interface CapRetryPolicy {
  /** Gap before the next marketing attempt after the 1st, 2nd, 3rd... consecutive cap; the last repeats. */
  gapsMs: readonly Millis[];
  /** Attempts per campaign message, the first included, before it ends `capped_exhausted`. */
  maxAttemptsPerMessage: number;
}

/** Our own cap: at most `max` marketing messages per contact per `windowMs`. */
export interface FrequencyCap {
  max: number;
  windowMs: Millis;
}

export interface BackoffPolicy {
  baseMs: Millis;
  maxMs: Millis;
  maxAttempts: number;
}

export interface Policy {
  capRetry: CapRetryPolicy;
  /** Codes treated as the per-user marketing cap. 131049 always; add 1026 for On-Premises-era traffic. */
  capCodes: readonly number[];
  /** Skip marketing templates to US (+1) numbers while Meta's pause stands. */
  usMarketingPause: boolean;
  /** After 131026, wait this long (or for an inbound message) before probing the number again. */
  unreachableQuietMs: Millis;
  /** An experiment-group (130472) hold is re-probed after this long outside any window; null = never. */
  experimentRecheckMs: Millis | null;
  /** Our own cap: at most `max` marketing messages per contact per `windowMs`; null disables it. */
  frequencyCap: FrequencyCap | null;
  marketingPath: MarketingPath;
  /** Categories that need explicit granted consent. Revoked consent is refused whatever this says. */
  consentRequired: Readonly<Record<Category, boolean>>;
  /** Inbound texts (whole message, case- and accent-insensitive) that stop or resume marketing. */
  stopKeywords: readonly string[];
  resumeKeywords: readonly string[];
  /** Quick-reply button texts or payloads that mean "stop promotions". */
  stopButtons: readonly string[];
  customerServiceWindowMs: Millis;
  freeEntryWindowMs: Millis;
  /** Retries of Meta-side transient failures (exponential with jitter). */
  transientBackoff: BackoffPolicy;
  /** Retries after 131056; Meta advises 4^n seconds. */
  pairRateBackoff: BackoffPolicy;
  /** Our own spacing between two messages to one person from one number (Meta's pair rate: about one per 6 s). */
  pairRateGapMs: Millis;
  /** Sender-wide backoff after 130429/80007/4/613. */
  senderBackoff: BackoffPolicy;
  /**
   * How soon a message blocked by something only Meta or an operator can fix is looked at again: a
   * template paused with no end announced, a stopped sender, an error parked for an operator.
   */
  blockedRecheckMs: Millis;
  /** When a running campaign pauses itself (cap share, RED template, quality drop). */
  campaignBreaker: BreakerConfig;
  /**
   * No sending between `from` and `to` (minutes after local midnight) in the recipient's zone, for
   * these categories; null: any hour. A campaign's own send window replaces it for its rows.
   */
  quietHours: QuietHours | null;
  /**
   * A campaign that names no spread of its own spreads its sends over this long after each opening of
   * the send window (or after it queued them); 0: at once, at the numbers' pace.
   */
  sendSpreadMs: Millis;
  /** The zone of a recipient whose zone is known neither from an attribute nor from the phone number. */
  defaultTimeZone: string;
}

export interface QuietHours {
  from: number;
  to: number;
  categories: readonly Category[];
}

export const CAP_SCHEDULE_PRESETS = {
  /** Meta's guidance: at least 24 h, growing gaps. */
  meta: { gapsMs: [24 * HOUR, 48 * HOUR, 72 * HOUR], maxAttemptsPerMessage: 3 },
  '12h': { gapsMs: [12 * HOUR], maxAttemptsPerMessage: 3 },
  '24h': { gapsMs: [24 * HOUR], maxAttemptsPerMessage: 3 },
  '48h': { gapsMs: [48 * HOUR], maxAttemptsPerMessage: 3 },
} as const satisfies Record<string, CapRetryPolicy>;
export type CapSchedulePreset = keyof typeof CAP_SCHEDULE_PRESETS;

export const DEFAULT_POLICY: Policy = Object.freeze({
  capRetry: CAP_SCHEDULE_PRESETS.meta,
  capCodes: [131049],
  usMarketingPause: true,
  unreachableQuietMs: 30 * DAY,
  experimentRecheckMs: 30 * DAY,
  frequencyCap: { max: 2, windowMs: 7 * DAY },
  marketingPath: 'cloud',
  consentRequired: { marketing: true, utility: true, authentication: false, service: false },
  stopKeywords: [
    'stop',
    'unsubscribe',
    'stop promotions',
    'parar',
    'parar promocoes',
    'pare',
    'baja',
    'alto',
    'cancelar',
    'desuscribir',
    'arret',
    'stopp',
    'abmelden',
    'annulla',
    'стоп',
    'отписаться',
    'توقف',
  ],
  resumeKeywords: ['start', 'resume', 'unstop', 'reanudar', 'retomar'],
  stopButtons: [
    'stop promotions',
    'stop_promo',
    'stop promos',
    'parar promocoes',
    'detener promociones',
    'stopper les promotions',
    'werbung stoppen',
    'остановить рекламу',
  ],
  customerServiceWindowMs: 24 * HOUR,
  freeEntryWindowMs: 72 * HOUR,
  transientBackoff: { baseMs: 2 * SECOND, maxMs: 10 * MINUTE, maxAttempts: 8 },
  pairRateBackoff: { baseMs: 1 * SECOND, maxMs: 5 * MINUTE, maxAttempts: 6 },
  pairRateGapMs: 6 * SECOND,
  senderBackoff: { baseMs: 1 * SECOND, maxMs: 2 * MINUTE, maxAttempts: 10 },
  blockedRecheckMs: HOUR,
  campaignBreaker: DEFAULT_BREAKER,
  quietHours: { from: 21 * 60, to: 8 * 60, categories: ['marketing'] as const },
  sendSpreadMs: 0,
  defaultTimeZone: 'UTC',
});

export function withCapPreset(policy: Policy, preset: CapSchedulePreset): Policy {
  return { ...policy, capRetry: CAP_SCHEDULE_PRESETS[preset] };
}

/** What a campaign may set for itself; absent (or null) keeps the installation's setting. */
export interface CampaignPolicy {
  /** This campaign's own frequency cap; `max` 0 turns the cap off for it. */
  frequencyCap?: FrequencyCap | null;
}

/** The policy `decide` applies to one campaign's rows: the installation's, with the campaign's overrides. */
export function policyForCampaign(policy: Policy, campaign: CampaignPolicy | null): Policy {
  const cap = campaign?.frequencyCap ?? null;
  if (cap === null) return policy;
  return { ...policy, frequencyCap: cap.max > 0 ? cap : null };
}
