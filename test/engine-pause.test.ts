import { describe, expect, it } from 'vitest';
import type { SimulatorConfigInput } from '../src/adapters/simulator/index.js';
import { DAY, HOUR, MINUTE, SECOND } from '../src/core/time.js';
import { advanceUntil } from './await-state.js';
import { BACKENDS } from './store-backends.js';
import { attemptsByRow, isFinalOrScheduled, MARKETING, onlyCountries, withRig } from './engine-rig.js';

/**
 * A marketing template nobody wants: readers block and report it within seconds, so WhatsApp rates
 * it RED and pauses it while the (slow) campaign is still going out. The number's own rating is
 * kept out of the way, so the template is what stops the campaign.
 */
const IRRELEVANT: SimulatorConfigInput = {
  seed: 5,
  population: { countries: onlyCountries('GB', 'DE', 'ES'), readPropensity: { min: 0.9, max: 1 } },
  templates: [
    { name: MARKETING, language: 'en_US', category: 'MARKETING', relevance: 0 },
    { name: 'order_update', language: 'en_US', category: 'UTILITY', relevance: 0.9 },
  ],
  reactions: {
    deliveredDelayMs: { min: SECOND, max: 5 * SECOND },
    readDelayMs: { min: SECOND, max: 10 * SECOND },
    reportRate: 0.05,
    blockRate: 0.1,
    preferenceStopRate: 0,
    stopTapRate: 0,
  },
  quality: { yellowAt: 0.8, redAt: 0.9 },
};

describe.each(BACKENDS)('pausing on $name', (backend) => {
  it('stops sends while paused and continues on resume; starting twice creates nothing twice', async () => {
    await withRig(backend, { mps: 5, sim: { population: { size: 200 } } }, async (rig) => {
      const id = await rig.createCampaign();
      const first = await rig.startCampaign(id);
      expect(first.inserted).toBe(200);
      expect(await rig.startCampaign(id)).toEqual({ scanned: 200, matched: 200, inserted: 0 });
      expect((await rig.store.campaignCounters(id)).total).toBe(200);

      await rig.advance(10 * SECOND);
      const before = rig.sim.groundTruth().requests;
      expect(before).toBeGreaterThan(20);
      expect(before).toBeLessThan(100); // 5 per second: far from done

      expect(await rig.store.setCampaignStatus(id, 'paused', 'paused by an operator', rig.clock.now())).toBe(true);
      await rig.advance(2 * HOUR);
      // Statuses and caps keep arriving while paused; requests do not.
      expect(rig.sim.groundTruth().requests).toBe(before);
      const paused = await rig.store.campaignCounters(id);
      expect(paused.queued).toBeGreaterThan(100);
      expect(await rig.store.getCampaign(id)).toMatchObject({ status: 'paused', pauseReason: 'paused by an operator' });

      expect(await rig.store.setCampaignStatus(id, 'running', null, rig.clock.now())).toBe(true);
      await rig.advance(HOUR);
      const truth = rig.sim.groundTruth();
      expect(truth.requests).toBeGreaterThan(before + 100);
      const rows = await rig.outbox(id);
      expect(rows).toHaveLength(200);
      expect(rows.filter((r) => !isFinalOrScheduled(r))).toEqual([]);
      // Everyone first attempted once: 131049 retries are a day away, so one attempt per row so far.
      const attempts = attemptsByRow(truth.messages);
      expect([...attempts.values()].filter((a) => a.length > 1)).toEqual([]);
      const reachable = rows.filter((r) => r.outcome !== 'skipped').length;
      expect(attempts.size).toBe(reachable);
    });
  });

  it('pauses the campaign when WhatsApp pauses its template, naming it, and sends no more of it', async () => {
    await withRig(backend, { mps: 2, sim: IRRELEVANT }, async (rig) => {
      const id = await rig.createCampaign();
      await rig.startCampaign(id);
      await advanceUntil(rig, 5 * SECOND, 30 * MINUTE, async () => (await rig.store.getCampaign(id))?.status === 'paused');

      const campaign = await rig.store.getCampaign(id);
      expect(campaign?.pauseReason).toContain(`${MARKETING} (en_US)`);
      const pausedAt = campaign?.updatedAt ?? 0;
      const atPause = rig.sim.groundTruth();
      const template = atPause.templates.find((t) => t.name === MARKETING);
      expect(template?.quality).toBe('RED');
      // The campaign stopped early: most of the audience was never tried.
      expect(atPause.messages.length).toBeLessThan(rig.sim.users.length / 2);

      // WhatsApp reinstates the template after its 3 h pause; the campaign stays paused until an operator resumes it.
      await rig.advance(6 * HOUR);
      const truth = rig.sim.groundTruth();
      expect(truth.templates.find((t) => t.name === MARKETING)?.pauses).toBeGreaterThanOrEqual(1);
      expect(truth.messages.filter((m) => m.template === MARKETING && m.acceptedAt > pausedAt)).toEqual([]);
      expect(truth.requests).toBe(atPause.requests);
      expect(await rig.store.getCampaign(id)).toMatchObject({ status: 'paused', pauseReason: campaign?.pauseReason });
      const counters = await rig.store.campaignCounters(id);
      expect(counters.queued).toBeGreaterThan(rig.sim.users.length / 2);
      expect(counters.leased + counters.sending + counters.unknown).toBe(0);
    });
  });

  it('trips the breaker when a send is refused for a paused template (132015), naming the template', async () => {
    await withRig(backend, { mps: 5, sim: { population: { size: 200 } } }, async (rig) => {
      const id = await rig.createCampaign();
      await rig.startCampaign(id);
      await rig.advance(5 * SECOND);
      rig.sim.faults.inject({ kind: 'error_code', code: 132015 }, { count: 1 });
      await rig.advance(2 * SECOND);
      const refused = rig.sim.groundTruth();
      expect(refused.syncErrors).toEqual({ 132015: 1 });
      expect((await rig.store.getTemplate(MARKETING, 'en_US'))?.status).toBe('paused');

      await rig.advance(15 * MINUTE);
      const campaign = await rig.store.getCampaign(id);
      expect(campaign?.status).toBe('paused');
      expect(campaign?.pauseReason).toContain(`${MARKETING} (en_US)`);
      // Nothing more of that template went out once Pacer knew; the rows wait for an operator.
      expect(rig.sim.groundTruth().requests).toBe(refused.requests);
      const counters = await rig.store.campaignCounters(id);
      expect(counters.queued).toBeGreaterThan(100);
    });
  });

  it('trips the cap-share breaker on a saturated audience; after a resume the cool-off retries go without re-tripping it', async () => {
    const sim = {
      seed: 23,
      population: { size: 300, countries: onlyCountries('IN', 'BR', 'ID', 'MX'), otherMarketingPerDay: { min: 2, max: 6 } },
      cap: { minPerWindow: 1, maxPerWindow: 2 },
    };
    await withRig(backend, { sim }, async (rig) => {
      const id = await rig.createCampaign();
      await rig.startCampaign(id);
      await advanceUntil(rig, 10 * MINUTE, 3 * HOUR, async () => (await rig.store.getCampaign(id))?.status === 'paused');
      expect((await rig.store.getCampaign(id))?.pauseReason).toMatch(
        /^\d+% of the last \d+ outcomes hit WhatsApp's per-user marketing cap/,
      );
      const atPause = rig.sim.groundTruth().requests;
      expect(atPause).toBeLessThanOrEqual(300); // first attempts only

      // Paused for two days: the cool-offs pass, but nothing is sent.
      await rig.advance(2 * DAY);
      expect(rig.sim.groundTruth().requests).toBe(atPause);
      expect(await rig.store.setCampaignStatus(id, 'running', null, rig.clock.now())).toBe(true);
      await rig.advance(HOUR);
      const truth = rig.sim.groundTruth();
      expect(truth.requests).toBeGreaterThan(atPause + 100);
      // Retries fail more often by nature; they do not count against the campaign.
      expect((await rig.store.getCampaign(id))?.status).toBe('running');
      expect([...attemptsByRow(truth.messages).values()].filter((a) => a.length > 2)).toEqual([]);
    });
  });
});
