import { DAY, type Millis } from '../../core/time.js';
import { isNightHour, type NightHours } from './local-time.js';

/** How our delivered messages landed in time: at the recipient's night, and how long after they were first asked for. */
export interface DeliveryTiming {
  delivered: number;
  /** Delivered at a local hour inside the night (`reactions.night`). */
  atNight: number;
  /** Delivered more than 24 h after the first request for that recipient and template. */
  lateOver24h: number;
}

/** The fields of a message's ground truth these read (`MessageTruth` has them). */
interface Timed {
  deliveredAt: Millis | null;
  deliveredLocalHour: number | null;
  firstRequestAt: Millis;
}

export function deliveredAtNight(m: Timed, night: NightHours): boolean {
  return m.deliveredLocalHour !== null && isNightHour(m.deliveredLocalHour, night);
}

/** From the first request for this recipient and template (retries and refused tries included) to delivery; null if not delivered. */
export function deliveryDelayMs(m: Timed): Millis | null {
  return m.deliveredAt === null ? null : m.deliveredAt - m.firstRequestAt;
}

export function deliveredLate(m: Timed, afterMs: Millis = DAY): boolean {
  const delay = deliveryDelayMs(m);
  return delay !== null && delay > afterMs;
}

export function summariseDeliveryTiming(messages: Iterable<Timed>, night: NightHours): DeliveryTiming {
  const timing: DeliveryTiming = { delivered: 0, atNight: 0, lateOver24h: 0 };
  for (const m of messages) {
    if (m.deliveredAt === null) continue;
    timing.delivered++;
    if (deliveredAtNight(m, night)) timing.atNight++;
    if (deliveredLate(m)) timing.lateOver24h++;
  }
  return timing;
}
