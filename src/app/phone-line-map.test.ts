import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PhoneLineMap } from './phone-line-map.js';

describe('PhoneLineMap', () => {
  it('returns the first line of a number seen before, and nothing for a new one', () => {
    const map = new PhoneLineMap();
    expect(map.firstLineOf('+447911123456', 2)).toBeUndefined();
    expect(map.firstLineOf('+12015550123', 3)).toBeUndefined();
    expect(map.firstLineOf('+447911123456', 9)).toBe(2);
    expect(map.firstLineOf('+447911123456', 12)).toBe(2);
  });

  it('agrees with a plain Map over many numbers, through growth', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1_000_000, max: 999_999_999_999_999 }), { maxLength: 3_000 }), (numbers) => {
        const map = new PhoneLineMap();
        const reference = new Map<string, number>();
        numbers.forEach((n, line) => {
          const e164 = `+${n}`;
          expect(map.firstLineOf(e164, line)).toBe(reference.get(e164));
          if (!reference.has(e164)) reference.set(e164, line);
        });
      }),
      { numRuns: 30 },
    );
  });
});
