import { describe, expect, it } from 'vitest';
import type { MessageTruth } from '../src/adapters/simulator/index.js';
import { DAY, HOUR, MINUTE } from '../src/core/time.js';
import type { TimelineEntry } from '../src/ports/store.js';
import { BACKENDS } from './store-backends.js';
import { MARKETING, onlyCountries, UTILITY, withRig } from './engine-rig.js';

const delivered = (m: MessageTruth): boolean => m.status === 'delivered' || m.status === 'read';
const decisions = (timeline: readonly TimelineEntry[]): string[] =>
  timeline.flatMap((e) => (e.type === 'decision' ? [`${e.kind}:${e.reason}`] : [])).reverse();

describe.each(BACKENDS)('held and stopped contacts on $name', (backend) => {
  it('sends a message held for the experiment group (130472) once the contact writes in, and it is delivered', async () => {
    const sim = {
      population: {
        size: 40,
        countries: onlyCountries('IN', 'BR'),
        experimentRate: 1,
        stoppedRate: 0,
        notOnWhatsAppRate: 0,
        replyPropensity: { min: 0, max: 0 },
      },
    };
    await withRig(backend, { sim }, async (rig) => {
      const id = await rig.createCampaign();
      await rig.startCampaign(id);
      await rig.advance(HOUR);
      expect(rig.sim.groundTruth().asyncFailures).toEqual({ 130472: 40 });
      expect((await rig.store.campaignCounters(id)).held).toBe(40);

      const writers = rig.sim.users.slice(0, 3);
      const wroteAt = rig.clock.now();
      for (const u of writers) rig.sim.act.writes(u.phone, 'Hi, is the sale still on?');
      await rig.advance(HOUR);

      const truth = rig.sim.groundTruth();
      const rows = await rig.outbox(id);
      for (const u of writers) {
        const sends = truth.messages.filter((m) => m.to === u.phone);
        expect(sends.map((m) => m.errorCode)).toEqual([130472, null]);
        const second = sends[1];
        expect(second?.acceptedAt).toBeGreaterThanOrEqual(wroteAt);
        expect(second !== undefined && delivered(second)).toBe(true);
        const row = rows.find((r) => r.contactId === rig.contactOf(u));
        expect(row).toMatchObject({ status: 'sent', wamid: second?.wamid });
        expect(['delivered', 'read']).toContain(row?.outcome);
        expect(decisions(await rig.store.contactTimeline(rig.contactOf(u), 50))).toEqual(['send:eligible', 'send:inside_window']);
      }
      // The others are still held: one attempt each, no probing while their window stays closed.
      expect(rows.filter((r) => r.status === 'held')).toHaveLength(40 - writers.length);
      expect(truth.messages).toHaveLength(40 + writers.length);
      expect(truth.syncErrors).toEqual({});
    });
  });

  it('never sends marketing to a contact who stopped it (preference or button), yet still delivers their utility', async () => {
    const sim = {
      seed: 31,
      population: {
        size: 80,
        countries: onlyCountries('GB', 'DE', 'ES'),
        experimentRate: 0,
        stoppedRate: 0,
        notOnWhatsAppRate: 0,
        readPropensity: { min: 0.9, max: 1 },
        replyPropensity: { min: 0, max: 0 },
      },
      reactions: { stopTapRate: 0.5, preferenceStopRate: 0, blockRate: 0, reportRate: 0 },
    };
    await withRig(backend, { sim }, async (rig) => {
      // One contact stops marketing in WhatsApp's settings before any campaign.
      const [stopper] = rig.sim.users;
      if (stopper === undefined) throw new Error('no users');
      rig.sim.act.stopsMarketing(stopper.phone);
      await rig.advance(MINUTE);

      const first = await rig.createCampaign('Spring sale');
      await rig.startCampaign(first);
      await rig.advance(DAY);
      // Nobody replies, so only a "Stop promotions" tap opened a window: that is who tapped.
      const tappers = rig.sim.users.filter((u) => u.state.windowOpenUntil > 0);
      expect(tappers.length).toBe(rig.sim.groundTruth().reactions.stopTaps);
      expect(tappers.length).toBeGreaterThan(5);
      const stopped = [stopper, ...tappers];
      const stoppedPhones = new Set(stopped.map((u) => u.phone));

      const second = await rig.createCampaign('Summer sale');
      await rig.startCampaign(second);
      expect(await rig.sendUtility(stopped, 'order-update')).toBe(stopped.length);
      const secondFrom = rig.clock.now();
      await rig.advance(DAY);

      const truth = rig.sim.groundTruth();
      // The preference stop: never attempted at all, so WhatsApp never had to refuse it (131050).
      expect(truth.messages.filter((m) => m.to === stopper.phone && m.template === MARKETING)).toEqual([]);
      expect(truth.asyncFailures[131050]).toBeUndefined();
      // After the stops, marketing went to others only, and utility reached every stopped contact.
      const later = truth.messages.filter((m) => m.acceptedAt >= secondFrom);
      const laterMarketing = later.filter((m) => m.template === MARKETING);
      expect(laterMarketing.length).toBeGreaterThan(rig.sim.users.length - stopped.length - 5);
      expect(laterMarketing.filter((m) => stoppedPhones.has(m.to))).toEqual([]);
      const utility = later.filter((m) => m.template === UTILITY);
      expect(utility.map((m) => m.to).sort()).toEqual([...stoppedPhones].sort());
      expect(utility.filter((m) => !delivered(m))).toEqual([]);

      // In the store: the second campaign's rows for them are skipped, and the timeline says why.
      const rows = await rig.outbox(second);
      for (const u of stopped) {
        expect(rows.find((r) => r.contactId === rig.contactOf(u))?.outcome).toBe('skipped');
        expect(decisions(await rig.store.contactTimeline(rig.contactOf(u), 50))).toContain('skip:marketing_stopped');
      }
    });
  });
});
