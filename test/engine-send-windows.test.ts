import { describe, expect, it } from 'vitest';
import { storedTiming } from '../src/app/message-timing.js';
import { wallClock } from '../src/core/local-time.js';
import { DAY, HOUR, type Millis } from '../src/core/time.js';
import type { JsonObject } from '../src/ports/store.js';
import { onlyCountries, withRig, type Rig } from './engine-rig.js';
import { BACKENDS } from './store-backends.js';

const ZONE = { GB: 'Europe/London', BR: 'America/Sao_Paulo' } as const;

/** The recipient's local hour (0–23.99) when Meta accepted each message, by the country of its number. */
function localHours(rig: Rig): { country: string; hour: number; at: Millis }[] {
  const byPhone = new Map(rig.sim.users.map((u) => [u.phone, u.country]));
  return rig.sim.groundTruth().messages.map((m) => {
    const country = byPhone.get(m.to) ?? '?';
    const zone = ZONE[country as keyof typeof ZONE];
    const wall = wallClock(zone, m.acceptedAt);
    return { country, hour: (((wall % DAY) + DAY) % DAY) / HOUR, at: m.acceptedAt };
  });
}

async function campaignWithTiming(rig: Rig, timing: Parameters<typeof storedTiming>[0]): Promise<number> {
  return rig.store.createCampaign(
    {
      name: 'Timed',
      templateId: rig.marketingTemplateId,
      senderId: rig.senderId,
      segment: { consent: ['marketing'] },
      scheduledAt: rig.clock.now(),
      policyPreset: 'meta',
      status: 'draft',
      timing: storedTiming(timing) as unknown as JsonObject,
    },
    rig.clock.now(),
  );
}

const WORLD = { sim: { population: { size: 60, countries: onlyCountries('GB', 'BR'), notOnWhatsAppRate: 0 } } };

describe.each(BACKENDS)('send windows in the recipient local time on $name', (backend) => {
  it('holds marketing through each recipient’s quiet hours and sends it in their morning', async () => {
    await withRig(backend, WORLD, async (rig) => {
      // 22:00 UTC: 22:00 in London (quiet), 19:00 in São Paulo (not yet).
      await rig.advance(14 * HOUR);
      const id = await rig.createCampaign();
      await rig.startCampaign(id);
      await rig.advance(HOUR);
      const early = localHours(rig);
      expect(early.filter((m) => m.country === 'GB')).toEqual([]);
      expect(early.filter((m) => m.country === 'BR').length).toBeGreaterThan(0);
      const waiting = (await rig.outbox(id)).filter((r) => r.status === 'queued');
      const decision = (await rig.store.contactTimeline(waiting[0]?.contactId ?? -1, 5)).find((e) => e.type === 'decision');
      expect(decision).toMatchObject({ kind: 'defer', reason: 'outside_send_window' });
      await rig.advance(DAY);
      const all = localHours(rig);
      expect(all.filter((m) => m.country === 'GB').length).toBeGreaterThan(0);
      // No marketing message went between 21:00 and 08:00 at its recipient.
      expect(all.filter((m) => m.hour >= 21 || m.hour < 8)).toEqual([]);
    });
  });

  it("keeps to a campaign's own window and weekdays, and ends what cannot go within its maximum delay", async () => {
    await withRig(backend, WORLD, async (rig) => {
      // Monday 2 March 2026, 08:00 UTC. Window 10:00–11:00 local, weekdays only.
      const windowed = await campaignWithTiming(rig, { window: { from: 600, to: 660, days: [1, 2, 3, 4, 5] } });
      await rig.startCampaign(windowed);
      await rig.advance(2 * DAY);
      const hours = localHours(rig);
      expect(hours.length).toBeGreaterThan(0);
      expect(hours.filter((m) => m.hour < 10 || m.hour >= 11)).toEqual([]);
      const sent = hours.length;

      // Wednesday 08:00 UTC + 2 d: a flash sale that must go within an hour, while London is at 08:00 and
      // São Paulo at 05:00 (quiet until 08:00): the Brazilian rows end expired, the British go now.
      const flash = await campaignWithTiming(rig, { maxDelayMs: HOUR });
      await rig.startCampaign(flash);
      await rig.advance(6 * HOUR);
      const rows = await rig.outbox(flash);
      const country = new Map(rig.sim.users.map((u) => [rig.contactOf(u), u.country]));
      const br = rows.filter((r) => country.get(r.contactId) === 'BR');
      expect(br.length).toBeGreaterThan(0);
      expect(br.every((r) => r.status === 'done' && r.outcome === 'skipped')).toBe(true);
      const reason = (await rig.store.contactTimeline(br[0]?.contactId ?? -1, 5)).find((e) => e.type === 'decision');
      expect(reason).toMatchObject({ kind: 'skip', reason: 'expired' });
      expect(localHours(rig).length).toBeGreaterThan(sent);
    });
  });
});
