import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decide } from './decide.js';
import type { MessageTiming } from './decision.js';
import { wallClock } from './local-time.js';
import { DEFAULT_POLICY } from './policy.js';
import { SPREAD_TURNS, spreadFraction, type SpreadSlot } from './send-spread.js';
import { insideWindow, nextOpening, outsideQuietHours, type SendWindow } from './send-window.js';
import { consentingContact, intent } from './test-support.js';
import { DAY, HOUR, MINUTE, SECOND, type Millis } from './time.js';

// Zones at both ends of the offsets, with DST north and south, a 30-minute DST and a 45-minute offset.
const ZONES = [
  'Pacific/Kiritimati',
  'Etc/GMT+12',
  'America/New_York',
  'Europe/London',
  'Australia/Sydney',
  'Australia/Lord_Howe',
  'Pacific/Chatham',
  'Asia/Kolkata',
  'UTC',
];
const T = Date.UTC(2026, 2, 1);
const at = fc.integer({ min: T, max: T + 280 * DAY });
const zone = fc.constantFrom(...ZONES);
// Windows open and close on the five minutes from 04:00 on, clear of every DST change of these zones
// (the change itself is the concern of the window tests); equal ends mean all day.
const edge = fc.integer({ min: 48, max: 24 * 12 - 1 }).map((k) => k * 5);
const window: fc.Arbitrary<SendWindow> = fc.record({
  from: edge,
  to: edge,
  days: fc.option(fc.uniqueArray(fc.integer({ min: 1, max: 7 }), { minLength: 1, maxLength: 7 }), { nil: null }),
});

/** Each share between 8 and 12 %. */
function expectEven(shares: readonly number[]): void {
  for (const share of shares) {
    expect(share).toBeGreaterThanOrEqual(0.08);
    expect(share).toBeLessThanOrEqual(0.12);
  }
}

function fractions(ids: readonly number[]): number[] {
  const bins = new Array<number>(10).fill(0);
  for (const id of ids) bins[Math.floor(spreadFraction(id) * 10)]! += 1;
  return bins.map((n) => n / ids.length);
}

describe('spread fractions', () => {
  it('put 10,000 consecutive row ids evenly over the spread: every tenth gets 8–12 %', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2 ** 31 - 20_000 }), (first) => {
        expectEven(fractions(Array.from({ length: 10_000 }, (_, k) => first + k)));
      }),
      { numRuns: 50 },
    );
  });

  it('put 10,000 scattered row ids (one country of an audience, say) about as evenly', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 1, max: 50_000_000 }), { minLength: 10_000, maxLength: 10_000 }), (ids) => {
        expectEven(fractions(ids));
      }),
      { numRuns: 10 },
    );
  });

  it('are stable and in [0, 1)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 53 - 1 }), (id) => {
        const f = spreadFraction(id);
        expect(f).toBe(spreadFraction(id));
        expect(f).toBeGreaterThanOrEqual(0);
        expect(f).toBeLessThan(1);
      }),
    );
  });
});

/**
 * The open stretch around `t` found the slow way, minute by minute: the run of open minutes holding
 * it (a window open all day restarts at each local midnight; one open always has no ends).
 */
function stretchAround(w: SendWindow | null, z: string, t: Millis): { opens: Millis; closes: Millis } {
  if (w === null || (w.from === w.to && w.days === null)) return { opens: -Infinity, closes: Infinity };
  const localDay = (x: Millis) => Math.floor(wallClock(z, x) / DAY);
  const sameRun = (x: Millis) => insideWindow(w, z, x) && (w.from !== w.to || localDay(x) === localDay(t));
  let opens = t - (t % MINUTE);
  while (sameRun(opens - MINUTE)) opens -= MINUTE;
  let closes = t - (t % MINUTE) + MINUTE;
  while (sameRun(closes)) closes += MINUTE;
  return { opens: Math.min(opens, t), closes };
}

/** The turn by the rule, from the slow stretch: the later of its opening and the due time, plus the row's share of what is left. */
function expectedTurn(w: SendWindow | null, z: string, t: Millis, s: SpreadSlot, notAfter: Millis | null): Millis {
  const { opens, closes } = stretchAround(w, z, t);
  const start = Math.max(opens, s.dueAt);
  const room = Math.min(s.overMs, closes - start, notAfter === null ? Infinity : notAfter - start);
  if (room <= 0) return t;
  const share = Math.floor(s.fraction * SPREAD_TURNS) / SPREAD_TURNS;
  return Math.max(t, start + Math.floor((share * room) / SECOND) * SECOND);
}

describe('decide with a spread (properties)', () => {
  const timingAt = (now: Millis) =>
    fc.record({
      zone,
      window: fc.option(window, { nil: null }),
      windowSource: fc.constant<MessageTiming['windowSource']>('campaign'),
      notAfter: fc.option(fc.integer({ min: now - HOUR, max: now + 3 * DAY }), { nil: null }),
      spread: fc.record({
        overMs: fc.integer({ min: 1, max: 24 * 60 }).map((m) => m * MINUTE),
        fraction: fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        dueAt: fc.integer({ min: now - 2 * DAY, max: now }),
      }),
    });
  const scenario = at.chain((now) => fc.tuple(fc.constant(now), timingAt(now)));

  it('sends only inside the window and at or after its turn; a wait ends at its turn, inside the window, before notAfter', () => {
    fc.assert(
      fc.property(scenario, ([now, tm]) => {
        const d = decide(consentingContact(), intent('marketing', { timing: tm }), now, DEFAULT_POLICY);
        const opening = tm.window === null ? now : nextOpening(tm.window, tm.zone, now);
        if (opening === null) {
          expect(d).toMatchObject({ kind: 'skip', reason: 'expired' });
          return;
        }
        const turn = expectedTurn(tm.window, tm.zone, opening, tm.spread, tm.notAfter);
        const goes = Math.max(opening, turn);
        if (tm.notAfter !== null && goes > tm.notAfter) {
          expect(d).toMatchObject({ kind: 'skip', reason: 'expired' });
          return;
        }
        if (goes === now) {
          expect(d.kind).toBe('send');
          if (tm.window !== null) expect(insideWindow(tm.window, tm.zone, now)).toBe(true);
          return;
        }
        expect(d).toMatchObject({ kind: 'defer', reason: opening > now ? 'outside_send_window' : 'spread_in_window', until: goes });
        if (d.kind !== 'defer') return;
        if (tm.window !== null) expect(insideWindow(tm.window, tm.zone, d.until)).toBe(true);
        // The turn is inside the stretch that opening begins, and within the spread after its start.
        const stretch = stretchAround(tm.window, tm.zone, opening);
        expect(d.until).toBeLessThan(stretch.closes);
        expect(d.until - Math.max(stretch.opens, tm.spread.dueAt)).toBeLessThan(tm.spread.overMs);
        // One wait, never a chain: at its turn it goes.
        expect(decide(consentingContact(), intent('marketing', { timing: tm }), d.until, DEFAULT_POLICY).kind).toBe('send');
      }),
      { numRuns: 300 },
    );
  });

  it('spreads 10,000 rows deferred overnight over the spread after the opening: every tenth gets 8–12 %', () => {
    // 23:00 in London, quiet hours 21:00–08:00: every row waits for 08:00 BST (07:00 UTC) and its turn in a 2 h spread.
    const now = Date.UTC(2026, 5, 10, 22, 0);
    const opening = Date.UTC(2026, 5, 11, 7, 0);
    const quiet = outsideQuietHours({ from: 21 * 60, to: 8 * 60 });
    const bins = new Array<number>(10).fill(0);
    for (let id = 5_000; id < 15_000; id++) {
      const tm: MessageTiming = {
        zone: 'Europe/London',
        window: quiet,
        windowSource: 'quiet_hours',
        notAfter: null,
        spread: { overMs: 2 * HOUR, fraction: spreadFraction(id), dueAt: now - HOUR },
      };
      const d = decide(consentingContact(), intent('marketing', { timing: tm }), now, DEFAULT_POLICY);
      if (d.kind !== 'defer') throw new Error(`row ${id} was not deferred: ${d.kind}`);
      expect(d.until).toBeGreaterThanOrEqual(opening);
      expect(d.until).toBeLessThan(opening + 2 * HOUR);
      bins[Math.floor(((d.until - opening) / (2 * HOUR)) * 10)]! += 1;
    }
    expectEven(bins.map((n) => n / 10_000));
  });

  it('says where the turn is, in the recipient local time', () => {
    const quiet = outsideQuietHours({ from: 21 * 60, to: 8 * 60 });
    const spread = { overMs: 2 * HOUR, fraction: 0.5, dueAt: Date.UTC(2026, 5, 10, 20, 0) };
    const tm: MessageTiming = { zone: 'Europe/London', window: quiet, windowSource: 'quiet_hours', notAfter: null, spread };
    const night = decide(consentingContact(), intent('marketing', { timing: tm }), Date.UTC(2026, 5, 10, 22, 0), DEFAULT_POLICY);
    expect(night).toMatchObject({ kind: 'defer', reason: 'outside_send_window', until: Date.UTC(2026, 5, 11, 8, 0) });
    expect(night.explanation).toContain('It is 23:00 for the recipient (Europe/London), inside your quiet hours (08:00–21:00)');
    expect(night.explanation).toContain(
      "spreads its sends over 2 h after each opening of the send window, and this recipient's turn is 09:00",
    );
    // Queued mid-morning, inside the window: its turn is half of the spread after that.
    const morning = { ...tm, spread: { ...spread, dueAt: Date.UTC(2026, 5, 11, 9, 0) } };
    const d = decide(consentingContact(), intent('marketing', { timing: morning }), Date.UTC(2026, 5, 11, 9, 30), DEFAULT_POLICY);
    expect(d).toMatchObject({ kind: 'defer', reason: 'spread_in_window', until: Date.UTC(2026, 5, 11, 10, 0) });
    expect(d.explanation).toBe(
      "Its turn has not come: this campaign spreads its sends over 2 h after each opening of the send window, and this recipient's turn is 11:00 their time (Europe/London), 2026-06-11T10:00:00.000Z.",
    );
    // Near the end of the window the spread shrinks to what is left of it: at 20:30 local, half of 30 min.
    const late = { ...tm, spread: { ...spread, dueAt: Date.UTC(2026, 5, 11, 19, 30) } };
    const e = decide(consentingContact(), intent('marketing', { timing: late }), Date.UTC(2026, 5, 11, 19, 30), DEFAULT_POLICY);
    expect(e).toMatchObject({ kind: 'defer', until: Date.UTC(2026, 5, 11, 19, 45) });
  });
});

describe('the frequency cap in the recipient local time', () => {
  it('names the local day and time the cap frees when the zone is known', () => {
    const state = consentingContact();
    const sent = Date.UTC(2026, 11, 1, 9, 0); // Tue 1 Dec
    const capped = {
      ...state,
      marketing: {
        ...state.marketing,
        recentSends: [
          { messageId: 'wamid.a', at: sent - DAY },
          { messageId: 'wamid.b', at: sent },
        ],
      },
    };
    const policy = { ...DEFAULT_POLICY, frequencyCap: { max: 2, windowMs: 7 * DAY } };
    const timing: MessageTiming = { zone: 'Europe/London', window: null, windowSource: null, notAfter: null, spread: null };
    const d = decide(capped, intent('marketing', { timing }), sent + HOUR, policy);
    expect(d).toMatchObject({ kind: 'defer', reason: 'frequency_cap' });
    expect(d.explanation).toContain('deferred by your frequency cap until Mon 7 Dec 09:00 local (Europe/London), 2026-12-07T09:00:00.000Z');
    const unzoned = decide(capped, intent('marketing'), sent + HOUR, policy);
    expect(unzoned.explanation).toContain('deferred by your frequency cap until 2026-12-07T09:00:00.000Z.');
  });
});
