import { instantOf, wallClock } from './local-time.js';
import { DAY, MINUTE, type Millis } from './time.js';

/**
 * When a message may go, in the recipient's local time: from `from` until `to` (minutes after local
 * midnight; `to` before `from` spans midnight, equal means all day), on `days` (ISO weekdays, 1
 * Monday … 7 Sunday; for a window spanning midnight, the day it opens), or every day when null.
 */
export interface SendWindow {
  from: number;
  to: number;
  days: readonly number[] | null;
}

/** Quiet hours (`from`–`to` local, no sending) as the window they leave open. */
export const outsideQuietHours = (quiet: { from: number; to: number }): SendWindow => ({ from: quiet.to, to: quiet.from, days: null });

const weekdayOf = (wallDay: number): number => ((((wallDay + 3) % 7) + 7) % 7) + 1; // 1970-01-01 was a Thursday

const opensOn = (w: SendWindow, weekday: number): boolean => w.days === null || w.days.includes(weekday);

/** Whether the window is open in `zone` at `at`. */
export function insideWindow(w: SendWindow, zone: string, at: Millis): boolean {
  const wall = wallClock(zone, at);
  const day = Math.floor(wall / DAY);
  const minute = Math.floor((wall - day * DAY) / MINUTE);
  const weekday = weekdayOf(day);
  if (w.from === w.to) return opensOn(w, weekday);
  if (w.from < w.to) return minute >= w.from && minute < w.to && opensOn(w, weekday);
  // Spanning midnight: this evening's window, or the tail of yesterday's.
  return (minute >= w.from && opensOn(w, weekday)) || (minute < w.to && opensOn(w, weekdayOf(day - 1)));
}

/**
 * `at` when the window is open then; otherwise the next instant it opens in `zone` (DST and zones
 * up to ±14 h included). Null when it never opens (no days).
 */
export function nextOpening(w: SendWindow, zone: string, at: Millis): Millis | null {
  if (insideWindow(w, zone, at)) return at;
  if (w.days !== null && w.days.length === 0) return null;
  const today = Math.floor(wallClock(zone, at) / DAY);
  const start = w.from === w.to ? 0 : w.from;
  for (let d = 0; d <= 8; d++) {
    const day = today + d;
    if (!opensOn(w, weekdayOf(day))) continue;
    const opening = instantOf(zone, day * DAY + start * MINUTE);
    if (opening > at) return opening;
  }
  return null;
}

/** `09:00` → 540; null for anything but HH:MM in 00:00–23:59 (24:00 allowed as the end of a day). */
export function parseLocalTime(text: string): number | null {
  const m = /^(\d{1,2}):(\d{2})$/.exec(text.trim());
  if (m === null) return null;
  const h = Number(m[1]);
  const min = Number(m[2]);
  if (min > 59 || h > 24 || (h === 24 && min !== 0)) return null;
  return (h * 60 + min) % (24 * 60);
}

/** `540` → `09:00`. */
export const localTimeText = (minutes: number): string =>
  `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;

const WEEKDAY_NAMES = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTH_NAMES = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** `at` on the zone's clock as an operator reads it: `Tue 8 Dec 09:00`. */
export function localDateTimeText(zone: string, at: Millis): string {
  const d = new Date(wallClock(zone, at));
  return `${WEEKDAY_NAMES[d.getUTCDay()] ?? '?'} ${d.getUTCDate()} ${MONTH_NAMES[d.getUTCMonth()] ?? '?'} ${localTimeText(d.getUTCHours() * 60 + d.getUTCMinutes())}`;
}
