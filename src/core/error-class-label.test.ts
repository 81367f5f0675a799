import { describe, expect, it } from 'vitest';
import { ERROR_CLASSES, type ErrorClass } from './error-class.js';
import { classSummary, classTitle, describeClass } from './error-class-label.js';

describe('describeClass', () => {
  it('describes every class, each differently', () => {
    const labels = ERROR_CLASSES.map(describeClass);
    for (const label of labels) expect(label.trim().length).toBeGreaterThan(10);
    expect(new Set(labels).size).toBe(ERROR_CLASSES.length);
    expect(new Set(ERROR_CLASSES.map(classTitle)).size).toBe(ERROR_CLASSES.length);
  });

  it('says the cap is marketing-only', () => {
    expect(describeClass('per_user_marketing_cap')).toMatch(/marketing/i);
    expect(classTitle('per_user_marketing_cap')).toBe('Per-user marketing cap');
  });

  it('throws on a value outside the union (what assertNever guards at run time)', () => {
    expect(() => describeClass('not_a_class' as ErrorClass)).toThrow(/Unhandled error class: "not_a_class"/);
  });
});

describe('classSummary', () => {
  it('is the description without its title', () => {
    expect(classSummary('pair_rate_limit')).toBe('Too many messages to one recipient in a short time');
    for (const cls of ERROR_CLASSES) expect(describeClass(cls)).toContain(classSummary(cls).slice(1));
  });
});
