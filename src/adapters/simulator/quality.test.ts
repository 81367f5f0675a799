import { describe, expect, it } from 'vitest';
import { DAY, HOUR, MINUTE } from '../../core/time.js';
import { DEFAULT_SIMULATOR_CONFIG } from './config.js';
import type { OutEvent } from './payloads.js';
import { PhoneQuality } from './quality.js';

function numberQuality(start: 'GREEN' | 'YELLOW' | 'RED' = 'GREEN') {
  const events: Array<{ event: string; at: number }> = [];
  const quality = new PhoneQuality(
    start,
    DEFAULT_SIMULATOR_CONFIG.quality,
    { displayPhoneNumber: '15550783881', messagingLimit: 'TIER_1K' },
    (e: OutEvent, at) => events.push({ event: e.kind === 'account' ? String(e.value['event']) : e.kind, at }),
  );
  return { quality, events };
}

describe("a simulated number's quality rating", () => {
  it('drops on early blocks, then recovers as later deliveries dilute them', () => {
    const { quality, events } = numberQuality();
    for (let i = 0; i < 50; i++) quality.delivered(i * MINUTE);
    for (const at of [50 * MINUTE, 51 * MINUTE]) {
      quality.record(at, 1);
      quality.evaluate(at);
    }
    expect(quality.rating).toBe('YELLOW');
    // 2,000 more deliveries over the next two days, and no more blocks.
    for (let i = 0; i < 2_000; i++) quality.delivered(DAY + i * MINUTE);
    expect(quality.rating).toBe('GREEN');
    expect(quality.lowest).toBe('YELLOW');
    expect(events.map((e) => e.event)).toEqual(['FLAGGED', 'UNFLAGGED']);
    // Back up once the ratio is under the threshold (2 / 101 deliveries), at a delivery's time.
    expect(events[1]!.at).toBeGreaterThanOrEqual(DAY);
    expect(events[1]!.at).toBeLessThan(DAY + 100 * MINUTE);
  });

  it('re-rates on deliveries at most every 10 minutes', () => {
    const { quality } = numberQuality();
    for (let i = 0; i < 50; i++) quality.delivered(i * MINUTE);
    quality.record(50 * MINUTE, 1);
    quality.record(50 * MINUTE, 1);
    quality.evaluate(50 * MINUTE);
    expect(quality.rating).toBe('YELLOW');
    // Enough deliveries to dilute the blocks, all within 10 minutes of the last look: no change yet.
    for (let i = 0; i < 200; i++) quality.delivered(50 * MINUTE + i * 2_000);
    expect(quality.rating).toBe('YELLOW');
    quality.delivered(60 * MINUTE);
    expect(quality.rating).toBe('GREEN');
  });

  it('leaves a GREEN number alone on deliveries, and a number set up lower stays so', () => {
    const green = numberQuality();
    for (let i = 0; i < 500; i++) green.quality.delivered(i * MINUTE);
    expect(green.events).toEqual([]);
    for (const start of ['YELLOW', 'RED'] as const) {
      const low = numberQuality(start);
      for (let i = 0; i < 500; i++) low.quality.delivered(i * MINUTE);
      expect(low.quality.rating).toBe(start);
      expect(low.events).toEqual([]);
    }
  });

  it('does not recover while the blocks still weigh', () => {
    const { quality, events } = numberQuality();
    for (let i = 0; i < 10; i++) quality.record(i * MINUTE, 1);
    quality.evaluate(10 * MINUTE);
    expect(quality.rating).toBe('RED');
    // 200 deliveries: 10 / 200 = 0.05, still at the red line.
    for (let i = 0; i < 200; i++) quality.delivered(HOUR + i * MINUTE);
    expect(quality.rating).toBe('RED');
    expect(quality.lowest).toBe('RED');
    expect(events.map((e) => e.event)).toEqual(['FLAGGED']);
  });
});
