/** Times in the core are milliseconds since the Unix epoch, passed in by the caller. */
export type Millis = number;

export const SECOND = 1000;
export const MINUTE = 60 * SECOND;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

export function iso(ms: Millis): string {
  return new Date(ms).toISOString();
}
