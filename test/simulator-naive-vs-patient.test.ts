import { describe, expect, it } from 'vitest';
import { ratingRank } from '../src/adapters/simulator/quality.js';
import { DAY } from '../src/core/time.js';
import { startHarness } from './simulator-harness.js';
import { runCampaign, type SenderOptions } from './simulator-senders.js';

async function outcome(options: SenderOptions) {
  const h = await startHarness({ seed: 51, population: { size: 300 } });
  try {
    await runCampaign(
      h,
      h.sim.users.map((u) => u.phone),
      options,
    );
    const truth = h.sim.groundTruth();
    return {
      caps: truth.asyncFailures['131049'] ?? 0,
      rating: truth.qualityRating,
      reached: Object.keys(truth.deliveredTo).length,
      flagged: h.receiver.changes('phone_number_quality_update').filter((c) => c.value.event === 'FLAGGED').length,
      unhandledSyncErrors: truth.syncErrors,
    };
  } finally {
    await h.close();
  }
}

describe('naive retries versus waiting 24 h, same seed, virtual time', () => {
  it('immediate retries of every failure earn more 131049s, a worse quality rating and fewer people reached', async () => {
    const naive = await outcome({ retryAfterMs: 0, maxAttempts: 6, durationMs: 3 * DAY });
    const patient = await outcome({ retryAfterMs: DAY, maxAttempts: 3, durationMs: 3 * DAY });

    expect(naive.unhandledSyncErrors).toEqual({});
    expect(patient.unhandledSyncErrors).toEqual({});
    expect(naive.caps).toBeGreaterThan(2 * patient.caps);
    expect(ratingRank(naive.rating)).toBeLessThan(ratingRank(patient.rating));
    expect(naive.flagged).toBeGreaterThan(0);
    expect(patient.reached).toBeGreaterThan(naive.reached);
  });
});
