import { instantNear, zoneOffset } from './local-time.js';
import type { SendWindow } from './send-window.js';
import { DAY, MINUTE, SECOND, type Millis } from './time.js';

/**
 * How a campaign spreads its sends so a window's opening is not a spike: each row has its turn
 * `fraction` of the way through `overMs` after the window opened (or after the row became due, if
 * later), so a morning's audience goes over the spread instead of in its first minute.
 */
export interface SpreadSlot {
  overMs: Millis;
  /** The row's place in the spread, in [0, 1): stable for the row (`spreadFraction` of its id). */
  fraction: number;
  /** When the row became due: queued, or the campaign's scheduled start if later. */
  dueAt: Millis;
}

/**
 * A stable place in [0, 1) for a row id: Fibonacci hashing (the id times 2^32 / φ, modulo 2^32), which
 * puts consecutive ids, as a campaign's rows are, evenly over the interval, and any other set of ids
 * about as evenly as chance would.
 */
export function spreadFraction(id: number): number {
  return (Math.imul(id, 0x9e3779b1) >>> 0) / 4_294_967_296;
}

/** The stretch of a window that is open at an instant. */
export interface OpenStretch {
  opens: Millis;
  closes: Millis;
}

const ALWAYS: OpenStretch = Object.freeze({ opens: -Infinity, closes: Infinity });

/**
 * The stretch of `w` in which `at` lies (`at` must be inside the window): when it opened and when it
 * closes, in `zone`. A window open all day on chosen weekdays opens again each local midnight; one
 * open every hour of every day never opens or closes.
 */
export function openStretch(w: SendWindow, zone: string, at: Millis): OpenStretch {
  const offset = zoneOffset(zone, at);
  const wall = at + offset;
  const day = Math.floor(wall / DAY);
  if (w.from === w.to) {
    if (w.days === null) return ALWAYS;
    return { opens: Math.min(at, instantNear(zone, day * DAY, offset)), closes: instantNear(zone, (day + 1) * DAY, offset) };
  }
  const minute = Math.floor((wall - day * DAY) / MINUTE);
  // Spanning midnight: opened this evening, or yesterday evening when `at` is in the small hours.
  const openDay = w.from < w.to || minute >= w.from ? day : day - 1;
  const closeDay = w.from < w.to ? openDay : openDay + 1;
  // A DST jump over the opening time moves the opening past it; the stretch still began no later than `at`.
  return {
    opens: Math.min(at, instantNear(zone, openDay * DAY + w.from * MINUTE, offset)),
    closes: instantNear(zone, closeDay * DAY + w.to * MINUTE, offset),
  };
}

/**
 * A spread has this many turns, each taken by the rows whose fraction falls in it: a 2 h spread has
 * a turn a minute. Rows that share a turn wake together, so a spread costs the dispatcher a claim
 * per turn rather than one per row.
 */
export const SPREAD_TURNS = 120;

/**
 * When a row inside an open stretch may go: the later of the stretch's opening and its due time, plus
 * its turn of the spread, the spread cut to what is left of the stretch and to `notAfter`; never
 * before `at`. In whole seconds after that start, so the same row always gets the same turn, and a
 * turn is always inside the stretch and never after `notAfter`.
 */
export function spreadTurn(spread: SpreadSlot, at: Millis, stretch: OpenStretch, notAfter: Millis | null): Millis {
  const start = Math.max(stretch.opens, spread.dueAt);
  let room = Math.min(spread.overMs, stretch.closes - start);
  if (notAfter !== null && notAfter - start < room) room = notAfter - start;
  // Nothing left to spread over (or a row due after the stretch, a clock ahead): it goes when it can.
  if (!(room > 0)) return at;
  const share = Math.floor(spread.fraction * SPREAD_TURNS) / SPREAD_TURNS;
  const turn = start + Math.floor((share * room) / SECOND) * SECOND;
  return turn > at ? turn : at;
}
