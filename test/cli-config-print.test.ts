import { afterEach, describe, expect, it } from 'vitest';
import { DAY } from '../src/core/time.js';
import { runPacer as run } from './cli-run.js';

afterEach(() => {
  delete process.env.PACER_FREQUENCY_CAP;
  delete process.env.PACER_CONSENT_REQUIRED;
  delete process.env.PACER_WORKER_PORT;
});

describe('pacer config print', () => {
  it('prints every policy knob with its effective value, the same with --json', async () => {
    process.env.PACER_FREQUENCY_CAP = '4/30d';
    process.env.PACER_CONSENT_REQUIRED = 'marketing';
    process.env.PACER_WORKER_PORT = '4100';
    for (const args of [
      ['config', 'print'],
      ['config', 'print', '--json'],
    ]) {
      const r = await run(...args);
      expect(r.code).toBe(0);
      const printed = JSON.parse(r.out) as { policy: Record<string, unknown>; worker: unknown };
      expect(printed.worker).toEqual({ leaseMs: 60_000, mps: 80, port: 4100 });
      expect(printed.policy).toMatchObject({
        frequencyCap: { max: 4, windowMs: 30 * DAY },
        consentRequired: { marketing: true, utility: false, authentication: false, service: false },
        capRetry: { gapsMs: [DAY, 2 * DAY, 3 * DAY], maxAttemptsPerMessage: 3 },
        unreachableQuietMs: 30 * DAY,
        experimentRecheckMs: 30 * DAY,
        pairRateGapMs: 6000,
        transientBackoff: { baseMs: 2000, maxMs: 600_000, maxAttempts: 8 },
        pairRateBackoff: { baseMs: 1000, maxMs: 300_000, maxAttempts: 6 },
        senderBackoff: { baseMs: 1000, maxMs: 120_000, maxAttempts: 10 },
        blockedRecheckMs: 3_600_000,
        usMarketingPause: true,
        marketingPath: 'cloud',
        capCodes: [131049],
        stopKeywords: expect.arrayContaining(['stop', 'unsubscribe']) as unknown,
        resumeKeywords: expect.arrayContaining(['start']) as unknown,
        stopButtons: expect.arrayContaining(['stop promotions']) as unknown,
        campaignBreaker: { maxCapShare: 0.3, minOutcomes: 200, pauseOnRedTemplate: true, pauseOnQualityDrop: true },
      });
    }
  });

  it('refuses a bad knob with exit code 2, naming the variable and the value', async () => {
    process.env.PACER_FREQUENCY_CAP = 'twice';
    const r = await run('config', 'print');
    expect(r.code).toBe(2);
    expect(r.err).toContain('PACER_FREQUENCY_CAP: like 2/7d');
    expect(r.err).toContain('(got "twice")');
  });
});
