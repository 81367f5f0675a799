import { describe, expect, it } from 'vitest';
import { createCloudApiClient } from '../src/adapters/cloud-api/cloud-api-client.js';
import { COUNTRIES, timeZoneFor, type CountryCode } from '../src/adapters/simulator/countries.js';
import {
  deliveredAtNight,
  deliveredLate,
  isNightHour,
  localHour,
  startSimulator,
  type GroundTruth,
  type MessageTruth,
  type SimulatorConfigInput,
  type SimUser,
} from '../src/adapters/simulator/index.js';
import { isKnownTimeZone } from '../src/adapters/simulator/local-time.js';
import { DAY, HOUR, SECOND, type Millis } from '../src/core/time.js';
import type { CloudApi } from '../src/ports/cloud-api.js';
import { VirtualClock } from '../src/ports/clock.js';
import { accepted, sendTemplate } from './simulator-harness.js';
import { plainTemplates } from './plain-templates.js';

const NIGHT = { fromHour: 21, toHour: 8 };
/** Country weights with only `codes` (weights merge with the defaults, so the others are set to 0). */
function only(...codes: CountryCode[]): Record<CountryCode, number> {
  return Object.fromEntries(Object.keys(COUNTRIES).map((c) => [c, codes.includes(c as CountryCode) ? 1 : 0])) as Record<
    CountryCode,
    number
  >;
}

/** Reachable users who have stopped nothing and are in no experiment. */
const REACHABLE = { notOnWhatsAppRate: 0, stoppedRate: 0, experimentRate: 0 } as const;

interface World {
  clock: VirtualClock;
  users: readonly SimUser[];
  client: CloudApi;
  advance(ms: Millis): Promise<void>;
  truth(): GroundTruth;
  close(): Promise<void>;
}

/** A simulator on a virtual clock that starts at `start`, webhooks kept in memory. */
async function world(config: SimulatorConfigInput, start: Millis): Promise<World> {
  const clock = new VirtualClock(start);
  const sim = await startSimulator({ templates: plainTemplates(), ...config }, { clock });
  const client = createCloudApiClient({
    baseUrl: sim.url,
    apiVersion: 'v24.0',
    phoneNumberId: sim.config.phoneNumberId,
    accessToken: sim.config.accessToken,
    scheduler: clock,
  });
  return {
    clock,
    users: sim.users,
    client,
    advance: (ms) => sim.advance(ms),
    truth: () => sim.groundTruth(),
    async close() {
      await client.close();
      await sim.stop();
    },
  };
}

describe('simulated users’ local time', () => {
  it('gives each user the time zone of their country, and a US user the zone of their area code', async () => {
    const w = await world({ seed: 11, population: { size: 3000 } }, Date.UTC(2026, 0, 5, 9));
    try {
      const seen = new Map<string, Set<string>>();
      for (const u of w.users) {
        expect(isKnownTimeZone(u.timeZone)).toBe(true);
        if (u.country !== 'US') expect(u.timeZone).toBe(COUNTRIES[u.country].zone);
        seen.set(u.country, (seen.get(u.country) ?? new Set()).add(u.timeZone));
      }
      expect(seen.get('IN')).toEqual(new Set(['Asia/Kolkata']));
      expect(seen.get('BR')).toEqual(new Set(['America/Sao_Paulo']));
      // The US spreads over its four mainland zones (Phoenix keeps standard time all year).
      expect(seen.get('US')).toEqual(new Set(['America/New_York', 'America/Chicago', 'America/Phoenix', 'America/Los_Angeles']));
      for (const u of w.users.filter((x) => x.country === 'US')) {
        const area = u.phone.slice(1, 4);
        if (area === '212') expect(u.timeZone).toBe('America/New_York');
        if (area === '312') expect(u.timeZone).toBe('America/Chicago');
        if (area === '415') expect(u.timeZone).toBe('America/Los_Angeles');
      }
      expect(timeZoneFor('US', '13125550100')).toBe('America/Chicago');
      expect(timeZoneFor('DE', '4915112345678')).toBe('Europe/Berlin');
    } finally {
      await w.close();
    }
  });

  it('reads marketing delivered at night later, and blocks and reports it more, than the same message by day', async () => {
    // The same seed, users and relevance; Berlin users, who have no cap. Only the hour differs.
    const config: SimulatorConfigInput = {
      seed: 5,
      population: { size: 400, countries: only('DE'), ...REACHABLE, readPropensity: { min: 1, max: 1 } },
      rateLimits: { throughputMps: 10_000 },
      // Reads within 2 h, so a day read never reaches the night; high negative rates so they can be counted.
      reactions: { readDelayMs: { min: 5 * SECOND, max: 2 * HOUR }, blockRate: 0.05, reportRate: 0.02 },
    };
    const run = async (start: Millis) => {
      const w = await world(config, start);
      try {
        await Promise.all(w.users.map((u, i) => sendTemplate(w.client, u.phone, `m-${i}`).then(accepted)));
        await w.advance(2 * DAY);
        return { ...w.truth(), users: w.users };
      } finally {
        await w.close();
      }
    };
    const day = await run(Date.UTC(2026, 0, 5, 11)); // 12:00 in Berlin
    const night = await run(Date.UTC(2026, 0, 5, 0)); // 01:00 in Berlin

    const byUser = (t: GroundTruth) => new Map(t.messages.map((m) => [m.to, m]));
    const d = byUser(day);
    const n = byUser(night);
    expect(day.messages.every((m) => m.deliveredLocalHour !== null && !isNightHour(m.deliveredLocalHour, NIGHT))).toBe(true);
    expect(night.messages.every((m) => m.deliveredLocalHour !== null && isNightHour(m.deliveredLocalHour, NIGHT))).toBe(true);
    expect(day.deliveryTiming).toEqual({ delivered: 400, atNight: 0, lateOver24h: 0 });
    expect(night.deliveryTiming).toEqual({ delivered: 400, atNight: 400, lateOver24h: 0 });

    // Each user draws the same delays in both worlds: at night every read that waits, waits longer.
    const wait = (m: MessageTruth | undefined) => (m?.readAt ?? NaN) - (m?.deliveredAt ?? NaN);
    let later = 0;
    for (const [to, dm] of d) {
      const nm = n.get(to);
      expect(nm?.readAt).not.toBeNull();
      if (wait(dm) === 0)
        expect(wait(nm)).toBe(0); // in the chat when it came, day or night
      else {
        expect(wait(nm)).toBeGreaterThan(wait(dm));
        later++;
      }
    }
    expect(later).toBeGreaterThan(300);
    const mean = (t: GroundTruth) => t.messages.reduce((s, m) => s + wait(m), 0) / t.messages.length;
    expect(mean(night)).toBeGreaterThan(2.5 * mean(day));

    // Negative reactions: at night more of them, and nobody who turned against us by day stays calm at night.
    const negative = (t: GroundTruth) => t.reactions.blocks + t.reactions.reports;
    expect(negative(night)).toBeGreaterThan(negative(day) * 1.3);
    const blockedBy = (t: typeof day) => t.users.filter((u) => u.state.blocked).map((u) => u.phone);
    expect(blockedBy(day).length).toBe(negative(day));
    expect(blockedBy(night)).toEqual(expect.arrayContaining(blockedBy(day)));
    expect(night.reactions.reports).toBeGreaterThan(day.reactions.reports);
  });

  it('counts deliveries at night and more than 24 h after the first request for that recipient and template', async () => {
    const T0 = Date.UTC(2026, 0, 5, 9); // 10:00 in Berlin, 03:00 in Mexico City
    const w = await world(
      {
        seed: 8,
        population: { size: 200, countries: only('DE', 'MX'), ...REACHABLE },
        // One message per recipient at once, so a second one at the same moment is refused (131056).
        rateLimits: { pairBurst: 1 },
        reactions: { blockRate: 0, reportRate: 0, stopTapRate: 0, preferenceStopRate: 0 },
      },
      T0,
    );
    try {
      const [b, b2] = w.users.filter((u) => u.country === 'DE');
      const m = w.users.find((u) => u.country === 'MX');
      if (b === undefined || b2 === undefined || m === undefined) throw new Error('population without Berlin and Mexico users');
      expect(localHour(m.timeZone, T0)).toBe(3);

      accepted(await sendTemplate(w.client, b.phone, 'b-1', 'order_update'));
      accepted(await sendTemplate(w.client, m.phone, 'm-1', 'order_update'));
      accepted(await sendTemplate(w.client, b2.phone, 'b2-1', 'order_update'));
      // The first try of the campaign to b2 is refused at once: lateness still counts from it.
      expect(await sendTemplate(w.client, b2.phone, 'b2-2', 'spring_sale')).toMatchObject({ kind: 'rejected', code: 131056 });
      await w.advance(25 * HOUR);
      accepted(await sendTemplate(w.client, b2.phone, 'b2-2', 'spring_sale'));
      // The same template again after the first one reached b: a new request, not a late one.
      await w.advance(5 * HOUR);
      accepted(await sendTemplate(w.client, b.phone, 'b-2', 'order_update'));
      await w.advance(DAY);

      const truth = w.truth();
      const byId = new Map(truth.messages.map((msg) => [msg.messageId, msg]));
      expect(byId.get('m-1')).toMatchObject({ timeZone: 'America/Mexico_City', firstRequestAt: T0 });
      expect(deliveredAtNight(byId.get('m-1')!, NIGHT)).toBe(true);
      expect(byId.get('b2-2')).toMatchObject({ timeZone: 'Europe/Berlin', firstRequestAt: T0, acceptedAt: T0 + 25 * HOUR });
      expect(deliveredLate(byId.get('b2-2')!)).toBe(true);
      expect(byId.get('b-2')?.firstRequestAt).toBe(T0 + 30 * HOUR);
      expect(deliveredLate(byId.get('b-2')!)).toBe(false);
      expect(truth.messages.map((msg) => msg.deliveredAt !== null)).toEqual([true, true, true, true, true]);
      expect(truth.deliveryTiming).toEqual({ delivered: 5, atNight: 1, lateOver24h: 1 });
    } finally {
      await w.close();
    }
  });
});
