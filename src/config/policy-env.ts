import { z } from 'zod';
import { DEFAULT_BREAKER } from '../core/campaign-breaker.js';
import { CATEGORIES, isCategory, type Category } from '../core/category.js';
import { FREQUENCY_CAP_MAX, parseDuration, parseFrequencyCap } from '../core/duration.js';
import { CAP_SCHEDULE_PRESETS, DEFAULT_POLICY, type BackoffPolicy, type Policy } from '../core/policy.js';
import { isTimeZone } from '../core/local-time.js';
import { parseLocalTime } from '../core/send-window.js';
import { DAY, durationText, HOUR, MINUTE, type Millis } from '../core/time.js';

/** A text variable read through `parse`; null from it is refused with `expected`. */
function text<T>(expected: string, parse: (value: string) => T | null) {
  return z.string().transform((value, ctx) => {
    const out = parse(value.trim());
    if (out === null) {
      ctx.addIssue({ code: 'custom', message: expected });
      return z.NEVER;
    }
    return out;
  });
}

const items = (value: string): string[] =>
  value
    .split(',')
    .map((x) => x.trim())
    .filter((x) => x !== '');

const duration = (min: Millis) =>
  text(`a duration like 6s, 90m, 12h or 30d${min > 0 ? `, at least ${durationText(min)}` : ''}`, (v) => {
    const ms = parseDuration(v);
    return ms !== null && ms >= min ? ms : null;
  });

const flag = z.enum(['true', 'false']).transform((v) => v === 'true');

/** `first,longest,retries`, e.g. `2s,10m,8`. */
const backoff = text('first gap, longest gap and retries, like 2s,10m,8 (the longest at least the first)', (v): BackoffPolicy | null => {
  const [first, longest, retries, ...rest] = items(v);
  if (first === undefined || longest === undefined || retries === undefined || rest.length > 0 || !/^\d{1,3}$/.test(retries)) return null;
  const baseMs = parseDuration(first);
  const maxMs = parseDuration(longest);
  if (baseMs === null || maxMs === null || baseMs < 1 || maxMs < baseMs) return null;
  return { baseMs, maxMs, maxAttempts: Number(retries) };
});

const words = text('comma-separated words, or none', (v) => (v.toLowerCase() === 'none' ? [] : items(v)));

/**
 * The policy knobs, as environment variables. Each default is the built-in policy's, so an unset
 * variable changes nothing; every variable here is documented in README.md and docs/configuration.md.
 */
export const policyEnvSchema = {
  PACER_CAP_SCHEDULE: text(
    `${Object.keys(CAP_SCHEDULE_PRESETS).join(', ')}, or comma-separated gaps of at least 1 h like 24h,48h,72h`,
    (v) => {
      if (Object.hasOwn(CAP_SCHEDULE_PRESETS, v)) return CAP_SCHEDULE_PRESETS[v as keyof typeof CAP_SCHEDULE_PRESETS].gapsMs;
      const gaps = items(v).map(parseDuration);
      return gaps.length > 0 && gaps.every((g): g is Millis => g !== null && g >= HOUR) ? gaps : null;
    },
  ).optional(),
  PACER_CAP_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(20).optional(),
  PACER_CAP_CODES: z
    .string()
    .transform((v) => items(v).map(Number))
    .pipe(z.array(z.number().int().positive()))
    .optional(),
  PACER_MARKETING_PATH: z.enum(['cloud', 'marketing_messages', 'marketing_messages_after_cap']).default(DEFAULT_POLICY.marketingPath),
  PACER_US_MARKETING_PAUSE: flag.default(DEFAULT_POLICY.usMarketingPause),
  PACER_FREQUENCY_CAP: text(
    `like 2/7d (at most 1 to ${FREQUENCY_CAP_MAX} marketing messages per contact per window of at least 1 min), or off`,
    parseFrequencyCap,
  ).optional(),
  PACER_CONSENT_REQUIRED: text(`comma-separated categories (${CATEGORIES.join(', ')}), or none`, (v): Category[] | null => {
    if (v.toLowerCase() === 'none') return [];
    const list = items(v.toLowerCase());
    return list.length > 0 && list.every(isCategory) ? list : null;
  }).optional(),
  PACER_UNREACHABLE_QUIET: duration(HOUR).optional(),
  PACER_EXPERIMENT_RECHECK: text('a duration like 7d or 30d (at least 1 h), or never', (v) => {
    if (v.toLowerCase() === 'never') return 'never' as const;
    const ms = parseDuration(v);
    return ms !== null && ms >= HOUR ? ms : null;
  }).optional(),
  PACER_PAIR_RATE_GAP: duration(0).optional(),
  PACER_TRANSIENT_BACKOFF: backoff.optional(),
  PACER_PAIR_RATE_BACKOFF: backoff.optional(),
  PACER_SENDER_BACKOFF: backoff.optional(),
  PACER_BLOCKED_RECHECK: duration(MINUTE).optional(),
  PACER_STOP_KEYWORDS: words.optional(),
  PACER_RESUME_KEYWORDS: words.optional(),
  PACER_STOP_BUTTONS: words.optional(),
  PACER_QUIET_HOURS: text('local hours like 21:00-08:00 (no sending from the first until the second), or off', (v) => {
    if (v.toLowerCase() === 'off') return 'off' as const;
    const [from, to, ...rest] = v.split('-').map((x) => parseLocalTime(x));
    return from == null || to == null || rest.length > 0 || from === to ? null : { from, to };
  }).optional(),
  PACER_QUIET_HOURS_CATEGORIES: text(`comma-separated categories (${CATEGORIES.join(', ')})`, (v): Category[] | null => {
    const list = items(v.toLowerCase());
    return list.length > 0 && list.every(isCategory) ? list : null;
  }).optional(),
  PACER_SEND_SPREAD: text('a duration like 1h or 90m (at most 1 day), or off', (v) => {
    if (v.toLowerCase() === 'off') return 0;
    const ms = parseDuration(v);
    return ms !== null && ms >= MINUTE && ms <= DAY ? ms : null;
  }).optional(),
  PACER_DEFAULT_TIME_ZONE: text('an IANA time zone like Europe/London or UTC', (v) => (isTimeZone(v) ? v : null)).optional(),
  PACER_BREAKER_CAP_SHARE: z.coerce.number().gt(0).max(1).default(DEFAULT_BREAKER.maxCapShare),
  PACER_BREAKER_MIN_OUTCOMES: z.coerce.number().int().min(1).max(1_000_000).default(DEFAULT_BREAKER.minOutcomes),
  PACER_BREAKER_PAUSE_ON_RED_TEMPLATE: flag.default(DEFAULT_BREAKER.pauseOnRedTemplate),
  PACER_BREAKER_PAUSE_ON_QUALITY_DROP: flag.default(DEFAULT_BREAKER.pauseOnQualityDrop),
};

export type PolicyEnv = z.output<z.ZodObject<typeof policyEnvSchema>>;

/** The policy the variables describe: the built-in one where a variable is unset. */
export function policyFromEnv(e: PolicyEnv): Policy {
  const d = DEFAULT_POLICY;
  const capCodes = e.PACER_CAP_CODES ?? d.capCodes;
  const required = e.PACER_CONSENT_REQUIRED;
  const cap = e.PACER_FREQUENCY_CAP;
  return {
    ...d,
    capRetry: {
      gapsMs: e.PACER_CAP_SCHEDULE ?? d.capRetry.gapsMs,
      maxAttemptsPerMessage: e.PACER_CAP_MAX_ATTEMPTS ?? d.capRetry.maxAttemptsPerMessage,
    },
    capCodes: capCodes.includes(131049) ? capCodes : [131049, ...capCodes],
    marketingPath: e.PACER_MARKETING_PATH,
    usMarketingPause: e.PACER_US_MARKETING_PAUSE,
    frequencyCap: cap === undefined ? d.frequencyCap : cap.max > 0 ? cap : null,
    consentRequired:
      required === undefined
        ? d.consentRequired
        : (Object.fromEntries(CATEGORIES.map((c) => [c, required.includes(c)])) as Record<Category, boolean>),
    unreachableQuietMs: e.PACER_UNREACHABLE_QUIET ?? d.unreachableQuietMs,
    experimentRecheckMs: e.PACER_EXPERIMENT_RECHECK === 'never' ? null : (e.PACER_EXPERIMENT_RECHECK ?? d.experimentRecheckMs),
    pairRateGapMs: e.PACER_PAIR_RATE_GAP ?? d.pairRateGapMs,
    transientBackoff: e.PACER_TRANSIENT_BACKOFF ?? d.transientBackoff,
    pairRateBackoff: e.PACER_PAIR_RATE_BACKOFF ?? d.pairRateBackoff,
    senderBackoff: e.PACER_SENDER_BACKOFF ?? d.senderBackoff,
    blockedRecheckMs: e.PACER_BLOCKED_RECHECK ?? d.blockedRecheckMs,
    stopKeywords: e.PACER_STOP_KEYWORDS ?? d.stopKeywords,
    resumeKeywords: e.PACER_RESUME_KEYWORDS ?? d.resumeKeywords,
    stopButtons: e.PACER_STOP_BUTTONS ?? d.stopButtons,
    quietHours: quietHoursOf(e, d),
    sendSpreadMs: e.PACER_SEND_SPREAD ?? d.sendSpreadMs,
    defaultTimeZone: e.PACER_DEFAULT_TIME_ZONE ?? d.defaultTimeZone,
    campaignBreaker: {
      maxCapShare: e.PACER_BREAKER_CAP_SHARE,
      minOutcomes: e.PACER_BREAKER_MIN_OUTCOMES,
      pauseOnRedTemplate: e.PACER_BREAKER_PAUSE_ON_RED_TEMPLATE,
      pauseOnQualityDrop: e.PACER_BREAKER_PAUSE_ON_QUALITY_DROP,
    },
  };
}

function quietHoursOf(e: PolicyEnv, d: Policy): Policy['quietHours'] {
  const hours = e.PACER_QUIET_HOURS;
  if (hours === 'off') return null;
  const base = hours ?? d.quietHours;
  if (base === null) return null;
  return { from: base.from, to: base.to, categories: e.PACER_QUIET_HOURS_CATEGORIES ?? d.quietHours?.categories ?? ['marketing'] };
}
