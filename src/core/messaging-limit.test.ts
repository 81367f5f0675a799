import { describe, expect, it } from 'vitest';
import { daysNeeded, messagingLimitOf } from './messaging-limit.js';

describe('messaging limit tiers', () => {
  it('maps every tier Meta names, old and new, and treats unknown ones as no limit', () => {
    expect(['TIER_50', 'TIER_250', 'TIER_1K', 'TIER_2K', 'TIER_10K', 'TIER_100K'].map(messagingLimitOf)).toEqual([50, 250, 1_000, 2_000, 10_000, 100_000]);
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
