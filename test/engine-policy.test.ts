import { describe, expect, it } from 'vitest';
import { frequencyCapInEffect } from '../src/app/campaign-outcomes.js';
import { campaignStatus } from '../src/adapters/cli/render-campaign-status.js';
import { loadConfig } from '../src/config/config.js';
import { DAY, HOUR } from '../src/core/time.js';
import { BACKENDS } from './store-backends.js';
import { MARKETING, onlyCountries, UTILITY, withRig } from './engine-rig.js';

// Configured as an operator would: our cap at 1 marketing message per week, and utility sent
// without a recorded opt-in (revoked consent still stops it).
const policy = loadConfig({ PACER_FREQUENCY_CAP: '1/7d', PACER_CONSENT_REQUIRED: 'marketing', PACER_QUIET_HOURS: 'off' }).policy;

const sim = {
  population: {
    size: 30,
    countries: onlyCountries('GB', 'DE'),
    experimentRate: 0,
    stoppedRate: 0,
    notOnWhatsAppRate: 0,
    replyPropensity: { min: 0, max: 0 },
  },
  reactions: { stopTapRate: 0, preferenceStopRate: 0, blockRate: 0, reportRate: 0 },
};

describe.each(BACKENDS)('configured policy in the engine on $name', (backend) => {
  it("sends utility without recorded consent, applies the configured cap, and a campaign's own cap to its rows", async () => {
    await withRig(backend, { sim, policy, utilityConsent: (u) => u.index >= 10 }, async (rig) => {
      const { store } = rig;
      expect(await rig.sendUtility(rig.sim.users, 'order')).toBe(30);
      await rig.advance(HOUR);
      const utility = await rig.outbox(null);
      // Every one went to Meta (a few phones are slow to report delivery): none was skipped for consent.
      expect(utility.filter((r) => r.status !== 'sent' || !['accepted', 'delivered', 'read'].includes(r.outcome ?? ''))).toEqual([]);

      const campaign = (name: string, frequencyCap: { max: number; windowMs: number } | null) =>
        store.createCampaign(
          {
            name,
            templateId: rig.marketingTemplateId,
            senderId: rig.senderId,
            segment: { consent: ['marketing'] },
            scheduledAt: rig.clock.now(),
            policyPreset: 'meta',
            status: 'draft',
            frequencyCap,
          },
          rig.clock.now(),
        );
      // The first marketing message of the week goes; a campaign allowing 2 a week sends a second.
      const first = await campaign('Spring', null);
      await rig.startCampaign(first);
      await rig.advance(HOUR);
      const own = await campaign('Flash sale', { max: 2, windowMs: 7 * DAY });
      await rig.startCampaign(own);
      const ownAt = rig.clock.now();
      await rig.advance(HOUR);
      for (const id of [first, own]) expect((await rig.outbox(id)).filter((r) => r.status !== 'sent')).toEqual([]);

      // A third campaign under the configured cap waits until the latest of those is a week old.
      const third = await campaign('Summer', null);
      await rig.startCampaign(third);
      await rig.advance(HOUR);
      const rows = await rig.outbox(third);
      expect(rows.map((r) => r.status)).toEqual(Array(30).fill('queued'));
      expect(Math.min(...rows.map((r) => r.nextAttemptAt ?? 0))).toBeGreaterThanOrEqual(ownAt + 7 * DAY);
      expect(Math.max(...rows.map((r) => r.nextAttemptAt ?? 0))).toBeLessThan(ownAt + 7 * DAY + HOUR);
      const truth = rig.sim.groundTruth();
      expect(truth.messages.filter((m) => m.template === MARKETING)).toHaveLength(60);
      expect(truth.messages.filter((m) => m.template === UTILITY)).toHaveLength(30);

      // campaign status says why they wait and until when.
      const c = await store.getCampaign(third);
      if (c === null) throw new Error('campaign expected');
      expect(frequencyCapInEffect(c, policy)).toEqual({ cap: { max: 1, windowMs: 7 * DAY }, from: 'configuration' });
      const status = await campaignStatus(store, c, rig.clock.now(), policy);
      expect(status.text).toMatch(/ {5}30 {2}Deferred by your frequency cap, until \d{4}-\d\d-\d\d \d\d:\d\d UTC/);
      expect(status.text).toContain('Frequency cap: 1 per 7 days (PACER_FREQUENCY_CAP)');
      expect(status.json).toMatchObject({
        outcomes: [{ key: 'deferred:frequency_cap', count: 30, until: { first: expect.any(String) as string } }],
      });
    });
  });
});
