import { describe, expect, it } from 'vitest';
import { campaignPaceOf, daysNeeded, messagingLimitOf, paceSentence } from './messaging-limit.js';

describe('messaging limit tiers', () => {
  it('maps every tier Meta names, old and new, and treats unknown ones as no limit', () => {
    expect(['TIER_50', 'TIER_250', 'TIER_1K', 'TIER_2K', 'TIER_10K', 'TIER_100K'].map(messagingLimitOf)).toEqual([
      50, 250, 1_000, 2_000, 10_000, 100_000,
    ]);
    expect(messagingLimitOf(' tier_2k ')).toBe(2_000);
    expect(messagingLimitOf('TIER_UNLIMITED')).toBeNull();
    expect(messagingLimitOf('TIER_NOT_SET')).toBeNull();
    expect(messagingLimitOf(null)).toBeNull();
  });

  it('says how many 24 h windows a campaign needs at least', () => {
    expect(daysNeeded(10_000, 2_000)).toBe(5);
    expect(daysNeeded(10_001, 2_000)).toBe(6);
    expect(daysNeeded(10, null)).toBe(1);
    expect(daysNeeded(0, 250)).toBe(0);
  });
});

describe('campaign pace', () => {
  it('spreads what does not fit today over the following windows', () => {
    const p = campaignPaceOf({ tier: 'TIER_2K', usedLast24h: 1_500, waiting: 9_500, throughputMps: 80 });
    // 500 fit today, 9,000 later at 2,000 a day: 5 more windows.
    expect(p).toEqual({ tier: 'TIER_2K', perDay: 2_000, usedLast24h: 1_500, waiting: 9_500, daysNeeded: 6, throughputMps: 80 });
    expect(paceSentence(p)).toBe(
      'Messaging limit TIER_2K: 2,000 new people per 24 h, 1,500 used in the last 24 h; the 9,500 waiting need about 6 days.',
    );
  });

  it('needs one window when everything fits, none when nothing waits, and says when the limit is unknown', () => {
    expect(campaignPaceOf({ tier: 'TIER_10K', usedLast24h: 0, waiting: 300, throughputMps: 80 }).daysNeeded).toBe(1);
    expect(campaignPaceOf({ tier: 'TIER_10K', usedLast24h: 0, waiting: 0, throughputMps: 80 }).daysNeeded).toBe(0);
    expect(campaignPaceOf({ tier: 'TIER_250', usedLast24h: 400, waiting: 10, throughputMps: 80 }).daysNeeded).toBe(2);
    const unknown = campaignPaceOf({ tier: null, usedLast24h: 0, waiting: 50_000, throughputMps: null });
    expect(unknown).toMatchObject({ perDay: null, daysNeeded: 1 });
    expect(paceSentence(unknown)).toBe('Messaging limit: not known yet (Meta names it in a webhook).');
    expect(paceSentence(campaignPaceOf({ tier: 'TIER_UNLIMITED', usedLast24h: 0, waiting: 5, throughputMps: 80 }))).toBe(
      'Messaging limit: unlimited; up to 80 messages/s.',
    );
  });
});
