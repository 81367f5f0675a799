import { describe, expect, it } from 'vitest';
import { inShare } from '../src/main/demo/demo-plan.js';

describe('inShare', () => {
  it('picks the share it is asked for, for every salt the worlds use', () => {
    const n = 20_000;
    for (const salt of [1, 100, 101, 102]) {
      for (const share of [0, 0.1, 0.3, 0.488, 0.9, 1]) {
        let picked = 0;
        for (let i = 0; i < n; i++) if (inShare(i, salt, share)) picked++;
        expect(Math.abs(picked / n - share), `salt ${salt}, share ${share}: picked ${picked} of ${n}`).toBeLessThan(0.015);
      }
    }
  });

  it('is the same answer for the same contact, and different salts pick different people', () => {
    const a = Array.from({ length: 1000 }, (_, i) => inShare(i, 100, 0.3));
    expect(Array.from({ length: 1000 }, (_, i) => inShare(i, 100, 0.3))).toEqual(a);
    const b = Array.from({ length: 1000 }, (_, i) => inShare(i, 101, 0.3));
    const both = a.filter((x, i) => x && b[i]).length;
    // Independent picks of 30 % overlap on about 9 % of people, not on all 30 %.
    expect(both).toBeGreaterThan(50);
    expect(both).toBeLessThan(150);
  });
});
