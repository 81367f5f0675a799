import { DAY, HOUR, MINUTE, type Millis } from '../../core/time.js';

/**
 * Local clock time of simulated users, from the platform's time-zone data (`Intl`, full ICU in
 * Node 20+, kept current with Node itself). Offsets are cached per zone and UTC quarter hour:
 * every offset in use is a whole number of quarter hours and zones change offset on a quarter
 * hour, so the cache is exact, and a week of a large population costs a few thousand look-ups.
 */

const QUARTER = 15 * MINUTE;
/** A bound on the cache, so a simulator left running for months does not grow without end. */
const MAX_CACHED = 200_000;

const formatters = new Map<string, Intl.DateTimeFormat>();
const offsets = new Map<string, number>();

/** A night in local hours: from `fromHour` (inclusive) to `toHour` (exclusive), across midnight when `fromHour > toHour`. */
export interface NightHours {
  fromHour: number;
  toHour: number;
}

function formatter(zone: string): Intl.DateTimeFormat {
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

/** Whether `zone` is an IANA time zone the platform knows. */
export function isKnownTimeZone(zone: string): boolean {
  try {
    formatter(zone);
    return true;
  } catch {
    return false;
  }
}

/** Local time minus UTC at `at`, in milliseconds (+5:30 in Kolkata is 19,800,000). */
export function utcOffsetMs(zone: string, at: Millis): number {
  const slot = Math.floor(at / QUARTER);
  const key = `${zone} ${slot}`;
  const cached = offsets.get(key);
  if (cached !== undefined) return cached;
  const instant = slot * QUARTER;
  const part: Record<string, number> = {};
  for (const p of formatter(zone).formatToParts(instant)) if (p.type !== 'literal') part[p.type] = Number(p.value);
  const local = Date.UTC(part.year ?? 0, (part.month ?? 1) - 1, part.day ?? 1, part.hour ?? 0, part.minute ?? 0, part.second ?? 0);
  const offset = local - instant;
  if (offsets.size >= MAX_CACHED) offsets.clear();
  offsets.set(key, offset);
  return offset;
}

/** The hour (0–23) a clock in `zone` shows at `at`. */
export function localHour(zone: string, at: Millis): number {
  return Math.floor(mod(at + utcOffsetMs(zone, at), DAY) / HOUR);
}

export function isNightHour(hour: number, night: NightHours): boolean {
  if (night.fromHour === night.toHour) return false; // no night at all
  return night.fromHour < night.toHour ? hour >= night.fromHour && hour < night.toHour : hour >= night.fromHour || hour < night.toHour;
}

export function isNightAt(zone: string, at: Millis, night: NightHours): boolean {
  return isNightHour(localHour(zone, at), night);
}

/** The first instant after `at` at which a clock in `zone` reads `hour`:00. */
export function nextLocalHour(zone: string, at: Millis, hour: number): Millis {
  const offset = utcOffsetMs(zone, at);
  const ahead = mod(hour * HOUR - mod(at + offset, DAY), DAY) || DAY;
  const naive = at + ahead;
  // Across a daylight-saving change the wall clock moved: shift by the difference, if that stays ahead.
  const shifted = naive - (utcOffsetMs(zone, naive) - offset);
  return shifted > at ? shifted : naive;
}

/**
 * When something that takes `delay` of the user's waking attention, starting at `from`, is done:
 * night hours count `1 / nightFactor` (the user is mostly asleep), day hours count in full. A long
 * delay started in the evening so ends the next morning; a short one at night is `nightFactor`
 * times longer. Never more than `delay × nightFactor`, so fast test configurations stay fast.
 */
export function afterWakingDelay(zone: string, from: Millis, delay: number, night: NightHours, nightFactor: number): Millis {
  if (night.fromHour === night.toHour || nightFactor === 1) return from + delay;
  let at = from;
  let left = delay;
  for (;;) {
    const atNight = isNightAt(zone, at, night);
    const until = nextLocalHour(zone, at, atNight ? night.toHour : night.fromHour);
    const span = until - at;
    const worth = atNight ? span / nightFactor : span;
    if (left <= worth) return Math.round(at + (atNight ? left * nightFactor : left));
    left -= worth;
    at = until;
  }
}

function mod(a: number, n: number): number {
  return ((a % n) + n) % n;
}
