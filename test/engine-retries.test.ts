import { describe, expect, it } from 'vitest';
import type { SimulatorConfigInput } from '../src/adapters/simulator/index.js';
import { DEFAULT_POLICY, type Policy } from '../src/core/policy.js';
import { DAY, HOUR } from '../src/core/time.js';
import { BACKENDS } from './store-backends.js';
import { attemptsByRow, marketingByRecipient, onlyCountries, UTILITY, withRig } from './engine-rig.js';

/**
 * Inboxes kept full: every user in a capped region, a cap of one or two per day, and plenty of other
 * businesses' marketing. Nobody replies, so no window ever excuses a send inside a cool-off.
 */
const SATURATED: SimulatorConfigInput = {
  seed: 23,
  population: {
    size: 150,
    countries: onlyCountries('IN', 'BR', 'ID', 'MX'),
    notOnWhatsAppRate: 0,
    experimentRate: 0,
    stoppedRate: 0,
    replyPropensity: { min: 0, max: 0 },
    otherMarketingPerDay: { min: 2, max: 6 },
  },
  cap: { minPerWindow: 1, maxPerWindow: 2 },
  reactions: { stopTapRate: 0, preferenceStopRate: 0, blockRate: 0, reportRate: 0 },
};

// Our own frequency cap would stretch the third attempt to a week; this file is about Meta's cap.
const POLICY: Policy = { ...DEFAULT_POLICY, frequencyCap: null };
const CAP = 131049;

describe.each(BACKENDS)('131049 on $name', (backend) => {
  it('is retried only after the cool-off, at most the configured number of times, then ends capped_exhausted', async () => {
    await withRig(backend, { sim: SATURATED, policy: POLICY }, async (rig) => {
      const { gapsMs, maxAttemptsPerMessage } = POLICY.capRetry;
      const id = await rig.createCampaign();
      await rig.startCampaign(id);
      await rig.advance(4 * DAY);
      const truth = rig.sim.groundTruth();
      expect(truth.asyncFailures[CAP] ?? 0).toBeGreaterThan(20);

      // Per recipient (what WhatsApp saw): after a 131049, our next marketing attempt waits at least 24 h.
      const gaps: number[] = [];
      for (const sends of marketingByRecipient(truth.messages).values()) {
        sends.forEach((m, k) => {
          const next = sends[k + 1];
          if (m.errorCode === CAP && next !== undefined) gaps.push(next.acceptedAt - m.acceptedAt);
        });
      }
      expect(gaps.length).toBeGreaterThan(10);
      expect(gaps.filter((g) => g < 24 * HOUR)).toEqual([]);

      // Per campaign message (what Pacer planned): the k-th consecutive cap waits the k-th gap, and
      // no message is attempted more often than the policy allows.
      const rows = new Map((await rig.outbox(id)).map((r) => [r.id, r]));
      const byRow = attemptsByRow(truth.messages);
      let exhausted = 0;
      for (const [rowId, attempts] of byRow) {
        expect(attempts.length).toBeLessThanOrEqual(maxAttemptsPerMessage);
        attempts.slice(1).forEach((m, k) => {
          expect(attempts[k]?.errorCode).toBe(CAP);
          expect(m.acceptedAt - (attempts[k]?.acceptedAt ?? 0)).toBeGreaterThanOrEqual(gapsMs[Math.min(k, gapsMs.length - 1)] ?? 0);
        });
        const row = rows.get(rowId);
        const capped = attempts.filter((m) => m.errorCode === CAP).length;
        if (capped < maxAttemptsPerMessage) expect(row?.capAttempts).toBe(capped);
        else {
          exhausted++;
          expect(row).toMatchObject({ status: 'done', outcome: 'capped_exhausted', lastErrorCode: CAP });
        }
      }
      expect(exhausted).toBeGreaterThan(0);
      // And the other way round: every exhausted row really used up its attempts on the cap.
      for (const row of rows.values()) {
        if (row.outcome !== 'capped_exhausted') continue;
        expect(byRow.get(row.id)?.map((m) => m.errorCode)).toEqual(Array.from({ length: maxAttemptsPerMessage }, () => CAP));
      }
      // Waiting out the cool-off is what the simulator rewards: no attempt landed inside a penalty,
      // so no user was annoyed by retries.
      expect(rig.sim.users.filter((u) => u.state.annoyance > 0).map((u) => u.index)).toEqual([]);
    });
  });

  it('leaves utility alone: a capped contact gets its order update the same day', async () => {
    await withRig(backend, { sim: SATURATED, policy: POLICY }, async (rig) => {
      const id = await rig.createCampaign();
      await rig.startCampaign(id);
      await rig.advance(HOUR);
      const capped = rig.sim.groundTruth().messages.filter((m) => m.errorCode === CAP);
      expect(capped.length).toBeGreaterThan(10);
      const cappedAt = new Map(capped.map((m) => [m.to, m.acceptedAt]));
      const users = rig.sim.users.filter((u) => cappedAt.has(u.phone));
      expect(await rig.sendUtility(users, 'order-update')).toBe(users.length);

      await rig.advance(3 * HOUR);
      const truth = rig.sim.groundTruth();
      const utility = truth.messages.filter((m) => m.template === UTILITY);
      expect(utility.map((m) => m.to).sort()).toEqual(users.map((u) => u.phone).sort());
      for (const m of utility) {
        expect(m.status === 'delivered' || m.status === 'read').toBe(true);
        const capAt = cappedAt.get(m.to) ?? 0;
        expect(new Date(m.deliveredAt ?? 0).toISOString().slice(0, 10)).toBe(new Date(capAt).toISOString().slice(0, 10));
      }
      const oneOffs = await rig.outbox(null);
      expect(oneOffs.map((r) => r.outcome).filter((o) => o !== 'delivered' && o !== 'read')).toEqual([]);

      // Meanwhile their campaign message still waits out the cool-off.
      const marketing = await rig.outbox(id);
      for (const u of users) {
        const row = marketing.find((r) => r.contactId === rig.contactOf(u));
        expect(row).toMatchObject({ status: 'queued', capAttempts: 1, lastErrorCode: CAP });
        expect(row?.nextAttemptAt ?? 0).toBeGreaterThanOrEqual((cappedAt.get(u.phone) ?? 0) + 24 * HOUR);
      }
    });
  });
});
