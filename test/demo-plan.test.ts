import { describe, expect, it } from 'vitest';
import { consentsOf, defaultDemoPlan, shareMembers } from '../src/main/demo/demo-plan.js';

const count = (m: Uint8Array) => m.reduce((n, x) => n + x, 0);

describe('shareMembers', () => {
  it('picks exactly the share it is asked for, rounded, for every salt the worlds use, at any size', () => {
    for (const size of [1, 7, 77, 500, 20_000]) {
      for (const salt of [1, 2, 100, 101, 102]) {
        for (const share of [0, 0.1, 0.3, 0.488, 0.666, 0.9, 1]) {
          expect(count(shareMembers(size, salt, share)), `size ${size}, salt ${salt}, share ${share}`).toBe(Math.round(share * size));
        }
      }
    }
  });

  it('is the same people for the same salt, and different salts pick different people', () => {
    const a = shareMembers(1000, 100, 0.3);
    expect(shareMembers(1000, 100, 0.3)).toEqual(a);
    const b = shareMembers(1000, 101, 0.3);
    const both = a.filter((x, i) => x === 1 && b[i] === 1).length;
    // Independent picks of 30 % overlap on about 9 % of people, not on all 30 %.
    expect(both).toBeGreaterThan(50);
    expect(both).toBeLessThan(150);
    // A larger share of the same salt keeps everyone the smaller one picked.
    const more = shareMembers(1000, 100, 0.5);
    expect(a.every((x, i) => x === 0 || more[i] === 1)).toBe(true);
  });

  it("gives a plan's consents in its exact shares: 66.6 % of 77 people is 51", () => {
    const plan = { ...defaultDemoPlan(77), marketingOptIn: 0.666, utilityOptIn: 0.5 };
    const people = Array.from({ length: 77 }, (_, i) => consentsOf(plan, i));
    expect(people.filter((c) => c.marketing)).toHaveLength(51);
    expect(people.filter((c) => c.utility)).toHaveLength(39);
  });
});
