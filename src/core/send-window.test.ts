import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decide } from './decide.js';
import type { MessageTiming } from './decision.js';
import { instantOf, wallClock, zoneOffset } from './local-time.js';
import { DEFAULT_POLICY } from './policy.js';
import { insideWindow, nextOpening, outsideQuietHours, parseLocalTime, type SendWindow } from './send-window.js';
import { consentingContact, intent } from './test-support.js';
import { DAY, HOUR, MINUTE } from './time.js';

// Zones at both ends of the offsets (+14, -11, -12), with DST north and south, a 30-minute DST
// (Lord Howe), a 45-minute offset (Chatham) and none (UTC).
const ZONES = [
  'Pacific/Kiritimati',
  'Pacific/Pago_Pago',
  'Etc/GMT+12',
  'America/New_York',
  'America/Sao_Paulo',
  'Europe/London',
  'Europe/Berlin',
  'Australia/Sydney',
  'Australia/Lord_Howe',
  'Pacific/Chatham',
  'Asia/Kolkata',
  'UTC',
];
// Around the 2026 DST changes: March (north), April and October (south), October and November (north).
const T = Date.UTC(2026, 2, 1);
const at = fc.integer({ min: T, max: T + 280 * DAY });
const zone = fc.constantFrom(...ZONES);
const minute = fc.integer({ min: 0, max: 24 * 60 - 1 });
const window: fc.Arbitrary<SendWindow> = fc.record({
  from: minute,
  to: minute,
  days: fc.option(fc.uniqueArray(fc.integer({ min: 1, max: 7 }), { minLength: 1, maxLength: 7 }), { nil: null }),
});

describe('local time', () => {
  it('knows the offsets of zones at both ends and across DST', () => {
    expect(zoneOffset('Pacific/Kiritimati', T)).toBe(14 * HOUR);
    expect(zoneOffset('Etc/GMT+12', T)).toBe(-12 * HOUR);
    expect(zoneOffset('Europe/London', Date.UTC(2026, 0, 10))).toBe(0);
    expect(zoneOffset('Europe/London', Date.UTC(2026, 6, 10))).toBe(HOUR);
    expect(zoneOffset('Australia/Lord_Howe', Date.UTC(2026, 0, 10))).toBe(11 * HOUR);
    expect(zoneOffset('Australia/Lord_Howe', Date.UTC(2026, 6, 10))).toBe(10.5 * HOUR);
    expect(zoneOffset('Pacific/Chatham', Date.UTC(2026, 6, 10))).toBe(12.75 * HOUR);
  });

  it('finds the instant of a wall time, the first in a repeated hour, past the gap in a skipped one', () => {
    fc.assert(
      fc.property(zone, at, (z, t) => {
        const wall = wallClock(z, t);
        const back = instantOf(z, wall);
        expect(wallClock(z, back)).toBe(wall);
        expect(back).toBeLessThanOrEqual(t);
      }),
    );
    // New York, 8 March 2026: 02:30 does not exist (02:00 → 03:00); 1 November: 01:30 happens twice.
    const gap = instantOf('America/New_York', Date.UTC(2026, 2, 8, 2, 30));
    expect(wallClock('America/New_York', gap)).toBe(Date.UTC(2026, 2, 8, 3, 30));
    const twice = instantOf('America/New_York', Date.UTC(2026, 10, 1, 1, 30));
    expect(twice).toBe(Date.UTC(2026, 10, 1, 5, 30)); // 01:30 EDT, the first
  });

  it('reads 09:00 and refuses what is not a local time', () => {
    expect(parseLocalTime('09:00')).toBe(540);
    expect(parseLocalTime('24:00')).toBe(0);
    for (const bad of ['9', '25:00', '09:60', 'nine', '24:30']) expect(parseLocalTime(bad)).toBeNull();
  });
});

describe('send windows (properties)', () => {
  it('the next opening is open, not before the asked time, and nothing open comes before it', () => {
    fc.assert(
      fc.property(window, zone, at, (w, z, t) => {
        const opening = nextOpening(w, z, t);
        if (opening === null) return;
        expect(opening).toBeGreaterThanOrEqual(t);
        expect(insideWindow(w, z, opening)).toBe(true);
        // Sampled every 10 minutes (windows open on the minute): nothing between was open.
        for (let s = t + 10 * MINUTE; s < opening - MINUTE; s += 10 * MINUTE) expect(insideWindow(w, z, s)).toBe(false);
      }),
      { numRuns: 300 },
    );
  });

  it('opens within a week whenever a day is allowed', () => {
    fc.assert(
      fc.property(window, zone, at, (w, z, t) => {
        const opening = nextOpening(w, z, t);
        expect(opening).not.toBeNull();
        expect((opening ?? 0) - t).toBeLessThanOrEqual(8 * DAY);
      }),
    );
  });
});

describe('decide with the recipient local time (properties)', () => {
  const timing = fc.record({
    zone,
    window: fc.option(window, { nil: null }),
    windowSource: fc.constant<MessageTiming['windowSource']>('campaign'),
    notAfter: fc.option(at, { nil: null }),
    spread: fc.constant(null),
  });

  it('never sends outside the window or after notAfter; a wait always ends at an opening and never after notAfter', () => {
    fc.assert(
      fc.property(timing, at, fc.constantFrom('marketing' as const, 'utility' as const), (tm, now, category) => {
        const d = decide(consentingContact(), intent(category, { timing: tm }), now, DEFAULT_POLICY);
        if (d.kind === 'send') {
          if (tm.window !== null) expect(insideWindow(tm.window, tm.zone, now)).toBe(true);
          if (tm.notAfter !== null) expect(now).toBeLessThanOrEqual(tm.notAfter);
        }
        if (d.kind === 'defer') {
          if (tm.window !== null) expect(insideWindow(tm.window, tm.zone, d.until)).toBe(true);
          if (tm.notAfter !== null) expect(d.until).toBeLessThanOrEqual(tm.notAfter);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('a cap retry waits its gap, then for the window', () => {
    // After a 131049 the cool-off is a minimum; at its end (say 23:10 in London) quiet hours hold it to 08:00.
    const state = consentingContact();
    const coolOff = Date.UTC(2026, 5, 10, 22, 10); // 23:10 BST
    const capped = { ...state, marketing: { ...state.marketing, coolOffUntil: coolOff } };
    const quiet = outsideQuietHours({ from: 21 * 60, to: 8 * 60 });
    const d = decide(
      capped,
      intent('marketing', { timing: { zone: 'Europe/London', window: quiet, windowSource: 'quiet_hours', notAfter: null, spread: null } }),
      Date.UTC(2026, 5, 10, 12, 0),
      DEFAULT_POLICY,
    );
    expect(d).toMatchObject({ kind: 'defer', reason: 'marketing_cool_off', until: Date.UTC(2026, 5, 11, 7, 0) });
    // Inside the window nothing changes; at night a send waits for the morning, and says so.
    const night = decide(
      state,
      intent('marketing', { timing: { zone: 'Europe/London', window: quiet, windowSource: 'quiet_hours', notAfter: null, spread: null } }),
      Date.UTC(2026, 5, 10, 22, 0),
      DEFAULT_POLICY,
    );
    expect(night).toMatchObject({ kind: 'defer', reason: 'outside_send_window', until: Date.UTC(2026, 5, 11, 7, 0) });
    expect(night.explanation).toContain('It is 23:00 for the recipient (Europe/London), inside your quiet hours (08:00–21:00)');
    // A message that would have to wait past its end ends instead.
    const late = decide(
      state,
      intent('marketing', {
        timing: { zone: 'Europe/London', window: quiet, windowSource: 'quiet_hours', notAfter: Date.UTC(2026, 5, 11, 6, 0), spread: null },
      }),
      Date.UTC(2026, 5, 10, 22, 0),
      DEFAULT_POLICY,
    );
    expect(late).toMatchObject({ kind: 'skip', reason: 'expired' });
  });
});
