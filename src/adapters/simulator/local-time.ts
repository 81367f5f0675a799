import { isTimeZone, zoneOffset } from '../../core/local-time.js';
import { DAY, HOUR, type Millis } from '../../core/time.js';

/**
 * Local clock time of simulated users, through the core's zone offsets (the platform's `Intl`
 * data, cached per zone and UTC quarter hour): the simulator and Pacer read the same clocks.
 */

/** A night in local hours: from `fromHour` (inclusive) to `toHour` (exclusive), across midnight when `fromHour > toHour`. */
export interface NightHours {
  fromHour: number;
  toHour: number;
}

/** Whether `zone` is an IANA time zone the platform knows. */
export const isKnownTimeZone = isTimeZone;

/** Local time minus UTC at `at`, in milliseconds (+5:30 in Kolkata is 19,800,000). */
export const utcOffsetMs = zoneOffset;

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
