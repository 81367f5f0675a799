/** Times in the core are milliseconds since the Unix epoch, passed in by the caller. */
export type Millis = number;

export const SECOND = 1000;
export const MINUTE = 60 * SECOND;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

export function iso(ms: Millis): string {
  // Decisions name the same few instants over and over (a window's opening, a cool-off's end):
  // formatting a Date is the costliest part of an explanation, so the texts are kept.
  let text = isoTexts.get(ms);
  if (text === undefined) {
    text = new Date(ms).toISOString();
    if (isoTexts.size >= ISO_CACHED) isoTexts.clear();
    isoTexts.set(ms, text);
  }
  return text;
}

const isoTexts = new Map<number, string>();
const ISO_CACHED = 4096;

/** A duration as an operator reads it, in its largest whole unit: `7 days`, `12 h`, `90 min`, `6 s`. */
export function durationText(ms: Millis): string {
  if (ms >= DAY && ms % DAY === 0) return ms === DAY ? '1 day' : `${ms / DAY} days`;
  if (ms >= HOUR && ms % HOUR === 0) return `${ms / HOUR} h`;
  if (ms >= MINUTE && ms % MINUTE === 0) return `${ms / MINUTE} min`;
  return `${ms / SECOND} s`;
}
