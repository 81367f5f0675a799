import { describe, expect, it } from 'vitest';
import { parseSegment, SEGMENT_LIMITS } from './segment-schema.js';

const tags = (n: number, prefix = 't') => Array.from({ length: n }, (_, i) => `${prefix}${i}`);
const attributes = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`a${i}`, `v${i}`]));

describe('segment limits', () => {
  it('accepts a segment at every limit', () => {
    const segment = {
      tagsAll: tags(SEGMENT_LIMITS.tagsPerList),
      tagsAny: tags(SEGMENT_LIMITS.tagsPerList, 'y'),
      tagsNone: tags(SEGMENT_LIMITS.tagsPerList, 'n'),
      attributes: {
        ...attributes(SEGMENT_LIMITS.attributes - 1),
        ['k'.repeat(SEGMENT_LIMITS.attributeNameLength)]: 'v'.repeat(SEGMENT_LIMITS.attributeValueLength),
      },
      consent: ['marketing', 'utility', 'authentication', 'service'],
      exclude: ['cooling_off', 'held', 'stopped', 'unreachable'],
      engagedWithinDays: 3650,
    };
    expect(parseSegment(segment)).toEqual(segment);
    expect(parseSegment({ tagsAll: ['x'.repeat(SEGMENT_LIMITS.tagLength)] }).tagsAll).toHaveLength(1);
  });

  it('refuses one past any limit, naming the field and the limit', () => {
    const cases: Array<[unknown, RegExp]> = [
      [{ tagsAll: tags(101) }, /^--segment\.tagsAll: at most 100 tags \(got 101\)$/],
      [{ tagsAny: tags(5000) }, /^--segment\.tagsAny: at most 100 tags \(got 5000\)$/],
      [{ tagsNone: tags(101) }, /^--segment\.tagsNone: at most 100 tags/],
      [{ tagsAll: ['x'.repeat(201)] }, /^--segment\.tagsAll\.0: a tag may have at most 200 characters \(this one has 201\)$/],
      [{ attributes: attributes(51) }, /^--segment\.attributes: at most 50 attributes \(got 51\)$/],
      [{ attributes: { city: 'x'.repeat(1001) } }, /^--segment\.attributes\.city: an attribute value may have at most 1000 characters/],
      [
        { attributes: { ['k'.repeat(201)]: 'v' } },
        /^--segment\.attributes: an attribute name may have at most 200 characters \(one has 201\)$/,
      ],
      [{ consent: Array<string>(5).fill('marketing') }, /^--segment\.consent: at most 4 values, each once \(got 5\)$/],
      [{ exclude: Array<string>(1000).fill('held') }, /^--segment\.exclude: at most 4 values, each once \(got 1000\)$/],
      [{ attributes: { nested: { deeper: 1 } } }, /^--segment\.attributes\.nested: /],
    ];
    for (const [value, message] of cases)
      expect(() => parseSegment(value, '--segment'), JSON.stringify(value).slice(0, 60)).toThrow(message);
  });
});
