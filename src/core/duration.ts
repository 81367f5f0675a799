import { RECENT_SENDS_LIMIT } from './contact-state.js';
import type { FrequencyCap } from './policy.js';
import { DAY, durationText, HOUR, MINUTE, SECOND, type Millis } from './time.js';

const UNITS: Record<string, Millis> = { ms: 1, s: SECOND, m: MINUTE, h: HOUR, d: DAY, w: 7 * DAY };

/** `500ms`, `6s`, `90m`, `12h`, `30d`, `2w` in milliseconds; null for anything else. */
export function parseDuration(text: string): Millis | null {
  const m = /^(\d{1,9})(ms|s|m|h|d|w)$/.exec(text.trim());
  if (m?.[1] === undefined || m[2] === undefined) return null;
  return Number(m[1]) * (UNITS[m[2]] ?? 0);
}

/** The most a frequency cap may count: the contact state keeps only this many recent marketing sends. */
export const FREQUENCY_CAP_MAX = RECENT_SENDS_LIMIT;

/**
 * `2/7d` (at most 2 marketing messages per contact per 7 days) or `off` (max 0); null when the
 * text is neither, or asks for more than the state can count.
 */
export function parseFrequencyCap(text: string): FrequencyCap | null {
  const t = text.trim().toLowerCase();
  if (t === 'off') return { max: 0, windowMs: 0 };
  const m = /^(\d{1,3})\s*\/\s*(\S+)$/.exec(t);
  if (m?.[1] === undefined || m[2] === undefined) return null;
  const max = Number(m[1]);
  const windowMs = parseDuration(m[2]);
  if (max < 1 || max > FREQUENCY_CAP_MAX || windowMs === null || windowMs < MINUTE) return null;
  return { max, windowMs };
}

/** `2 per 7 days`, or `off`. */
export function frequencyCapText(cap: FrequencyCap | null): string {
  return cap === null || cap.max <= 0 ? 'off' : `${cap.max} per ${durationText(cap.windowMs)}`;
}
