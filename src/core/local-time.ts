import { HOUR, MINUTE, type Millis } from './time.js';

/**
 * Wall-clock time in an IANA zone, from the platform's time-zone database (Intl, full ICU in Node).
 * Pure: no clock is read. A zone's offset is worked out once per zone and UTC hour and kept, so
 * `decide` can ask for a recipient's local time a million times a second.
 */

const formatters = new Map<string, Intl.DateTimeFormat>();
/** Per zone, the offset in force in each UTC quarter hour asked about. */
const offsets = new Map<string, Map<number, number>>();
const MAX_CACHED = 50_000;

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
  const slot = Math.floor(at / QUARTER_HOUR);
  let byZone = offsets.get(zone);
  if (byZone === undefined) {
    byZone = new Map();
    offsets.set(zone, byZone);
  }
  const hit = byZone.get(slot);
  if (hit !== undefined) return hit;
  const parts = formatterOf(zone).formatToParts(new Date(slot * QUARTER_HOUR));
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const wall = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
  const offset = wall - slot * QUARTER_HOUR;
  if (byZone.size > MAX_CACHED) byZone.clear();
  byZone.set(slot, offset);
  return offset;
}

const QUARTER_HOUR = 15 * MINUTE;

/** The zone's wall clock at `at`, as milliseconds since 1970-01-01T00:00 of that wall clock. */
export function wallClock(zone: string, at: Millis): number {
  return at + zoneOffset(zone, at);
}

/**
 * `instantOf`, quicker when the offset in force then is likely `offset` (read at a nearby instant):
 * the guess holds when the clock reads `wall` at `wall - offset` and no change of offset came in the
 * 14 h before (so no earlier instant reads `wall` too); otherwise the full search.
 */
export function instantNear(zone: string, wall: number, offset: number): Millis {
  const at = wall - offset;
  if (zoneOffset(zone, at) === offset && zoneOffset(zone, at - 14 * HOUR) === offset) return at;
  return instantOf(zone, wall);
}

/**
 * The first instant at which the zone's wall clock reads `wall`. When a DST change skips that wall
 * time, the instant the same distance after it (the clock reads `wall` plus the jump).
 */
export function instantOf(zone: string, wall: number): Millis {
  // Offsets are within ±14 h: those in force 14 h either side of `wall` include the right one.
  const before = zoneOffset(zone, wall - 14 * HOUR);
  const after = zoneOffset(zone, wall + 14 * HOUR);
  if (before === after) {
    const at = wall - before;
    if (zoneOffset(zone, at) === before) return at; // no change near it: the common case
  }
  const middle = zoneOffset(zone, wall);
  let exact: Millis | null = null;
  let past: Millis | null = null;
  for (const offset of [before, middle, after]) {
    const at = wall - offset;
    const reads = at + zoneOffset(zone, at);
    if (reads === wall) exact = exact === null ? at : Math.min(exact, at);
    else if (reads > wall) past = past === null ? at : Math.min(past, at);
  }
  // In a gap (no instant reads `wall`): the earliest candidate past it.
  return exact ?? past ?? wall - after;
}
