import { describe, expect, it } from 'vitest';
import { HOUR, MINUTE } from '../../core/time.js';
import { afterWakingDelay, isKnownTimeZone, isNightHour, localHour, nextLocalHour, utcOffsetMs } from './local-time.js';

const NIGHT = { fromHour: 21, toHour: 8 };

describe('local time of simulated users', () => {
  it('reads the hour on the user’s clock, half-hour zones and daylight saving included', () => {
    const at = Date.UTC(2026, 0, 5, 9, 0);
    expect(localHour('Asia/Kolkata', at)).toBe(14); // 14:30
    expect(localHour('Asia/Kolkata', at - 31 * MINUTE)).toBe(13); // 13:59
    expect(localHour('America/Los_Angeles', at)).toBe(1);
    expect(localHour('Asia/Tokyo', at)).toBe(18);
    expect(utcOffsetMs('Asia/Kolkata', at)).toBe(5.5 * HOUR);
    // New York leaves standard time at 02:00 local on 8 March 2026 (07:00 UTC).
    expect(utcOffsetMs('America/New_York', Date.UTC(2026, 2, 8, 6, 59))).toBe(-5 * HOUR);
    expect(utcOffsetMs('America/New_York', Date.UTC(2026, 2, 8, 7, 0))).toBe(-4 * HOUR);
    expect(localHour('America/New_York', Date.UTC(2026, 2, 8, 7, 0))).toBe(3);
    // Kiritimati is fourteen hours ahead of UTC: the next day already.
    expect(localHour('Pacific/Kiritimati', Date.UTC(2026, 0, 5, 12))).toBe(2);
    expect(isKnownTimeZone('Europe/Berlin')).toBe(true);
    expect(isKnownTimeZone('Mars/Olympus_Mons')).toBe(false);
  });

  it('tells night hours across midnight, within a day, and none when the two hours are equal', () => {
    expect([20, 21, 23, 0, 7, 8].map((h) => isNightHour(h, NIGHT))).toEqual([false, true, true, true, true, false]);
    expect([0, 1, 4, 5].map((h) => isNightHour(h, { fromHour: 1, toHour: 5 }))).toEqual([false, true, true, false]);
    expect(isNightHour(3, { fromHour: 6, toHour: 6 })).toBe(false);
  });

  it('finds the next time the local clock reads an hour, across a daylight-saving change', () => {
    // 23:00 in Berlin on 5 January (22:00 UTC): 08:00 local is 07:00 UTC the next day.
    expect(nextLocalHour('Europe/Berlin', Date.UTC(2026, 0, 5, 22), 8)).toBe(Date.UTC(2026, 0, 6, 7));
    // Exactly on the hour: the next one, a day on.
    expect(nextLocalHour('Europe/Berlin', Date.UTC(2026, 0, 6, 7), 8)).toBe(Date.UTC(2026, 0, 7, 7));
    // The night clocks go forward (29 March 2026): 08:00 CEST is 06:00 UTC.
    expect(nextLocalHour('Europe/Berlin', Date.UTC(2026, 2, 28, 22), 8)).toBe(Date.UTC(2026, 2, 29, 6));
    expect(nextLocalHour('Asia/Kolkata', Date.UTC(2026, 0, 5, 9), 21)).toBe(Date.UTC(2026, 0, 5, 15, 30));
  });

  it('stretches delays at night, carries a long one into the morning, and leaves the day alone', () => {
    const zone = 'Europe/Berlin';
    const noon = Date.UTC(2026, 0, 5, 11); // 12:00 local
    expect(afterWakingDelay(zone, noon, HOUR, NIGHT, 4)).toBe(noon + HOUR);
    const twoAm = Date.UTC(2026, 0, 6, 1); // 02:00 local
    expect(afterWakingDelay(zone, twoAm, 10 * MINUTE, NIGHT, 4)).toBe(twoAm + 40 * MINUTE);
    // Six night hours count one and a half: a 2 h delay ends at 08:30 local.
    expect(afterWakingDelay(zone, twoAm, 2 * HOUR, NIGHT, 4)).toBe(Date.UTC(2026, 0, 6, 7, 30));
    // Started at 20:00 local, a 3 h delay spends one hour of day, then the night at a quarter speed.
    const eight = Date.UTC(2026, 0, 5, 19);
    expect(afterWakingDelay(zone, eight, 3 * HOUR, NIGHT, 4)).toBe(eight + HOUR + 8 * HOUR);
    // Never more than the factor times the delay; a factor of 1 or no night changes nothing.
    expect(afterWakingDelay(zone, twoAm, 50, NIGHT, 4)).toBe(twoAm + 200);
    expect(afterWakingDelay(zone, twoAm, HOUR, NIGHT, 1)).toBe(twoAm + HOUR);
    expect(afterWakingDelay(zone, twoAm, HOUR, { fromHour: 0, toHour: 0 }, 4)).toBe(twoAm + HOUR);
  });
});
