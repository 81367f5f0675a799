import { describe, expect, it } from 'vitest';
import type { SimulatorConfigInput } from '../src/adapters/simulator/index.js';
import { runDiagnosis } from '../src/app/diagnose.js';
import { startCampaign } from '../src/app/start-campaign.js';
import { DAY, HOUR, SECOND } from '../src/core/time.js';
import { advanceUntil } from './await-state.js';
import { BACKENDS } from './store-backends.js';
import { MARKETING, UTILITY, withRig, type Rig } from './engine-rig.js';

/**
 * The three situations an operator meets after a wave of 131049, each played through Pacer and the
 * simulator on a virtual clock (seeded, so every run is the same), then diagnosed from what Pacer
 * stored: a normal per-user cap, one unwanted template, and a number whose quality dropped.
 */
const BAD = 'flash_blast';

async function diagnoseNow(rig: Rig, campaignId: number | null) {
  return runDiagnosis(rig.store, rig.policy, { campaignId, since: null, now: rig.clock.now() });
}

/** An unwanted second marketing template: recipients stop, block and report it; the number is kept out of it. */
const UNWANTED: SimulatorConfigInput = {
  seed: 21,
  templates: [
    { name: MARKETING, language: 'en_US', category: 'MARKETING', relevance: 0.9 },
    { name: BAD, language: 'en_US', category: 'MARKETING', relevance: 0 },
    { name: UTILITY, language: 'en_US', category: 'UTILITY', relevance: 0.9 },
  ],
  reactions: {
    stopTapRate: 0.15,
    preferenceStopRate: 0.05,
    blockRate: 0.08,
    reportRate: 0.03,
    readDelayMs: { min: 5 * SECOND, max: HOUR },
  },
  quality: { yellowAt: 0.8, redAt: 0.9 },
};

/** Blocks spread over every template: the number's rating falls while no template stands out. */
const NUMBER_AT_RISK: SimulatorConfigInput = {
  seed: 31,
  reactions: { blockRate: 0.06, reportRate: 0.02, readDelayMs: { min: 5 * SECOND, max: HOUR } },
  quality: { minSample: 40, yellowAt: 0.02, redAt: 0.06, template: { minSample: 30, yellowAt: 0.9, redAt: 0.95 } },
};

describe.each(BACKENDS)('diagnose scenarios on $name', (backend) => {
  it('calls a normal per-user cap spread thinly across a campaign recipient_level', async () => {
    await withRig(backend, { sim: { seed: 13 } }, async (rig) => {
      const id = await rig.createCampaign();
      await rig.startCampaign(id);
      await rig.advance(3 * DAY);

      const truth = rig.sim.groundTruth();
      expect(truth.messages.length).toBeGreaterThan(200);
      const { facts, diagnosis } = await diagnoseNow(rig, id);
      expect(facts.failures.find((c) => c.code === 131049)?.recipients).toBeGreaterThan(10);
      expect(facts.campaign).toMatchObject({ id, template: `${MARKETING} (en_US)` });
      expect(diagnosis.verdict).toBe('recipient_level');
      expect(diagnosis.subject).toBeNull();
      expect(diagnosis.action).toMatch(/cool-off/);
      // Thin: no recipient failed three times, and caps are most of the failures.
      expect(facts.failing.repeated).toBe(0);
      expect(diagnosis.evidence.filter((e) => e.decisive).map((e) => e.text)).toEqual([
        expect.stringMatching(/^\d+\.\d% of failed messages are per-user caps/),
        'No recipient failed repeatedly: the failures are spread thinly across the audience.',
        'No template, audience or account signal stands out.',
      ]);
      expect(facts.senders).toEqual([expect.objectContaining({ quality: 'GREEN', state: 'ok' })]);
    });
  });

  it('names the one unwanted template: campaign_level', async () => {
    await withRig(backend, { sim: UNWANTED }, async (rig) => {
      const [badId] = await rig.store.upsertTemplates(
        [{ name: BAD, language: 'en_US', category: 'marketing', status: 'approved', quality: 'GREEN', pausedUntil: null }],
        rig.clock.now(),
      );
      const good = await rig.createCampaign('Loyalty news');
      await rig.startCampaign(good);
      await rig.advance(6 * HOUR);
      const bad = await rig.store.createCampaign(
        {
          name: 'Flash blast',
          templateId: badId ?? -1,
          senderId: rig.senderId,
          segment: { consent: ['marketing'] },
          scheduledAt: rig.clock.now(),
          policyPreset: 'meta',
          status: 'draft',
        },
        rig.clock.now(),
      );
      await startCampaign(rig.store, bad, { phoneNumberId: rig.phoneNumberId }, rig.clock.now(), rig.engine.signal);
      await rig.advance(DAY);

      const { facts, diagnosis } = await diagnoseNow(rig, null);
      const badUsage = facts.templates.find((t) => t.label === `${BAD} (en_US)`);
      const goodUsage = facts.templates.find((t) => t.label === `${MARKETING} (en_US)`);
      expect(badUsage?.messages).toBeGreaterThan(20);
      expect(goodUsage?.messages).toBeGreaterThan(20);
      // The unwanted template lost readers' goodwill; the other one did not.
      expect((badUsage?.stopped ?? 0) / (badUsage?.recipients ?? 1)).toBeGreaterThan(
        (goodUsage?.stopped ?? 0) / (goodUsage?.recipients ?? 1),
      );
      expect(facts.senders[0]).toMatchObject({ state: 'ok' });
      expect(diagnosis.verdict).toBe('campaign_level');
      expect(diagnosis.subject).toBe(`${BAD} (en_US)`);
      expect(diagnosis.action).toContain(`${BAD} (en_US)`);
      expect(
        diagnosis.evidence
          .filter((e) => e.decisive)
          .map((e) => e.text)
          .join(' '),
      ).toContain(BAD);
    });
  });

  it('sees the number quality drop behind the failures: account_level', async () => {
    await withRig(backend, { sim: NUMBER_AT_RISK }, async (rig) => {
      const id = await rig.createCampaign();
      await rig.startCampaign(id);
      await advanceUntil(
        rig,
        10 * 60 * SECOND,
        2 * DAY,
        async () => (await rig.store.getSender(rig.phoneNumberId))?.qualityRating !== 'GREEN',
      );
      await rig.advance(HOUR);

      const { facts, diagnosis } = await diagnoseNow(rig, null);
      expect(facts.templates.every((t) => t.quality === 'GREEN')).toBe(true);
      expect(diagnosis.verdict).toBe('account_level');
      expect(diagnosis.subject).toBe(`sender ${rig.phoneNumberId}`);
      expect(diagnosis.evidence[0]).toMatchObject({ decisive: true, text: expect.stringContaining('quality rating is FLAGGED') });
      // The drop is in the sender's history and paused the running marketing campaign; the report shows both.
      expect(facts.senderEvents).toEqual([
        expect.objectContaining({ phoneNumberId: rig.phoneNumberId, source: 'phone_quality FLAGGED', quality: 'FLAGGED' }),
      ]);
      expect(facts.pauses.map((p) => p.campaignId)).toEqual([id]);
    });
  });

  it('calls a sender stopped by an account-level refusal account_level', async () => {
    await withRig(backend, { mps: 5, sim: { seed: 41, population: { size: 150 } } }, async (rig) => {
      const id = await rig.createCampaign();
      await rig.startCampaign(id);
      await rig.advance(10 * SECOND);
      rig.sim.faults.inject({ kind: 'error_code', code: 131031 }, { count: 1 });
      await advanceUntil(rig, 5 * SECOND, HOUR, async () => (await rig.store.getSender(rig.phoneNumberId))?.state === 'stopped');
      await rig.advance(HOUR);

      const { facts, diagnosis } = await diagnoseNow(rig, id);
      expect(facts.failures.find((c) => c.code === 131031)?.messages).toBe(1);
      expect(diagnosis.verdict).toBe('account_level');
      expect(diagnosis.evidence.filter((e) => e.decisive).map((e) => e.text)).toEqual(
        expect.arrayContaining([
          expect.stringContaining(`Sender ${rig.phoneNumberId} is stopped: 131031`),
          expect.stringContaining('refused with 131031'),
        ]),
      );
    });
  });
});
