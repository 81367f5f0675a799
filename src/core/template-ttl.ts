import type { MarketingPath } from './policy.js';
import type { TemplateCategory } from './template-definition.js';
import { DAY, durationText, SECOND, type Millis } from './time.js';

/**
 * A template's time-to-live (`message_send_ttl_seconds`): how long Meta keeps retrying a message it
 * cannot deliver (a phone that is off) before it drops it. Meta's ranges per category (reference
 * §7.2): authentication 30–900 s (default 10 min), utility 30 s–12 h (default 30 days), both on the
 * Cloud API; marketing 12 h–30 days (default 30 days), honoured on the Marketing Messages API only:
 * on /messages a marketing template is retried for 30 days whatever the template says. -1 asks for
 * 30 days, for authentication and utility.
 */
export interface TtlRange {
  minSeconds: number;
  maxSeconds: number;
  defaultSeconds: number;
  /** Whether -1 (30 days) is accepted. */
  thirtyDays: boolean;
}

const THIRTY_DAYS = (30 * DAY) / SECOND;

export const TTL_RANGES: Readonly<Record<TemplateCategory, TtlRange>> = {
  authentication: { minSeconds: 30, maxSeconds: 900, defaultSeconds: 600, thirtyDays: true },
  utility: { minSeconds: 30, maxSeconds: 43_200, defaultSeconds: THIRTY_DAYS, thirtyDays: true },
  marketing: { minSeconds: 43_200, maxSeconds: THIRTY_DAYS, defaultSeconds: THIRTY_DAYS, thirtyDays: false },
};

/** Why Meta would refuse this time-to-live for a template of this category, or null when it takes it. */
export function ttlProblem(category: TemplateCategory, seconds: number): string | null {
  const r = TTL_RANGES[category];
  if (seconds === -1 && r.thirtyDays) return null;
  if (!Number.isInteger(seconds)) return `must be whole seconds, got ${seconds}`;
  if (seconds >= r.minSeconds && seconds <= r.maxSeconds) return null;
  return `${category === 'authentication' ? 'an' : 'a'} ${category} template's time-to-live is ${secondsText(r.minSeconds)} to ${secondsText(r.maxSeconds)} (Meta's range), got ${secondsText(seconds)}`;
}

/** How long Meta retries this template's messages on the path they take, in ms; `stored` is Meta's value (null: its default). */
export function effectiveTtlMs(category: TemplateCategory, stored: number | null, path: 'cloud' | 'marketing_messages'): Millis {
  if (category === 'marketing' && path === 'cloud') return THIRTY_DAYS * SECOND;
  const seconds = stored === null ? TTL_RANGES[category].defaultSeconds : stored === -1 ? THIRTY_DAYS : stored;
  return seconds * SECOND;
}

/** Whether marketing may go through the Marketing Messages API, where a template's TTL holds. */
export const marketingUsesMmApi = (path: MarketingPath): boolean => path !== 'cloud';

/** `12 h (43,200 s)`, `90 s`. */
export function secondsText(seconds: number): string {
  if (seconds === -1) return '30 days (-1)';
  const ms = seconds * SECOND;
  const plain = `${seconds.toLocaleString('en-US')} s`;
  const text = durationText(ms);
  return text === plain || text === `${seconds} s` ? plain : `${text} (${plain})`;
}
