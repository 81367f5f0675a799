import { HOUR, MINUTE, type Millis } from './time.js';

/**
 * Wall-clock time in an IANA zone, from the platform's time-zone database (Intl, full ICU in Node).
 * Pure: no clock is read. A zone's offset is worked out once per zone and UTC hour and kept, so
 * `decide` can ask for a recipient's local time a million times a second.
 */

const formatters = new Map<string, Intl.DateTimeFormat>();
const offsets = new Map<string, number>();
const MAX_CACHED = 100_000;

function formatterOf(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (f === undefined) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(zone, f);
  }
  return f;
}

/** Whether the platform knows the zone (e.g. `Europe/London`); a bad name never reaches `decide`. */
export function isTimeZone(zone: string): boolean {
  try {
    formatterOf(zone);
    return true;
  } catch {
    return false;
  }
}

/** Milliseconds to add to UTC for the zone's wall clock at `at` (negative west of Greenwich). */
export function zoneOffset(zone: string, at: Millis): number {
  // Offsets change only on the hour or half hour (DST, rare policy changes): one per UTC quarter hour is exact.
  const slot = Math.floor(at / (15 * MINUTE));
  const key = `${zone}\u0000${slot}`;
  const hit = offsets.get(key);
  if (hit !== undefined) return hit;
  const parts = formatterOf(zone).formatToParts(new Date(slot * 15 * MINUTE));
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const wall = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
  const offset = wall - slot * 15 * MINUTE;
  if (offsets.size > MAX_CACHED) offsets.clear();
  offsets.set(key, offset);
  return offset;
}

/** The zone's wall clock at `at`, as milliseconds since 1970-01-01T00:00 of that wall clock. */
export function wallClock(zone: string, at: Millis): number {
  return at + zoneOffset(zone, at);
}

/**
 * The first instant at which the zone's wall clock reads `wall`. When a DST change skips that wall
 * time, the instant the same distance after it (the clock reads `wall` plus the jump).
 */
export function instantOf(zone: string, wall: number): Millis {
  // Offsets are within ±14 h: those in force 14 h either side (and at `wall`) include the right one.
  const candidates = [...new Set([zoneOffset(zone, wall - 14 * HOUR), zoneOffset(zone, wall), zoneOffset(zone, wall + 14 * HOUR)])]
    .map((offset) => wall - offset)
    .sort((a, b) => a - b);
  const exact = candidates.find((t) => wallClock(zone, t) === wall);
  if (exact !== undefined) return exact;
  // In a gap: each candidate lands past it or before it; the earliest past it.
  return candidates.find((t) => wallClock(zone, t) > wall) ?? (candidates.at(-1) as number);
}
