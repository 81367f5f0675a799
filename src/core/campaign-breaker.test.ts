import { describe, expect, it } from 'vitest';
import { DEFAULT_BREAKER, evaluateBreaker, type BreakerSignals } from './campaign-breaker.js';

const calm: BreakerSignals = {
  window: { outcomes: 500, caps: 50, accountStops: 0 },
  template: { status: 'approved', quality: 'GREEN' },
  sender: { quality: 'GREEN', previousQuality: 'GREEN', state: 'ok', stateReason: null },
  accountRestricted: false,
};

describe('evaluateBreaker', () => {
  it('lets a campaign with a normal, thin spread of caps run', () => {
    expect(evaluateBreaker(calm)).toEqual({ trip: false });
  });

  it('trips on a high cap share only once the window is large enough', () => {
    expect(evaluateBreaker({ ...calm, window: { outcomes: 500, caps: 200, accountStops: 0 } })).toMatchObject({
      trip: true,
      reason: 'cap_share',
    });
    expect(evaluateBreaker({ ...calm, window: { outcomes: 20, caps: 20, accountStops: 0 } })).toEqual({ trip: false });
    expect(
      evaluateBreaker({ ...calm, window: { outcomes: 500, caps: 200, accountStops: 0 } }, { ...DEFAULT_BREAKER, maxCapShare: 0.5 }),
    ).toEqual({ trip: false });
  });

  it.each([
    ['template_paused', { template: { status: 'paused' as const, quality: 'RED' } }],
    ['template_red', { template: { status: 'approved' as const, quality: 'RED' } }],
    ['quality_drop', { sender: { quality: 'YELLOW', previousQuality: 'GREEN', state: 'ok' as const, stateReason: null } }],
    ['account_restricted', { accountRestricted: true }],
    ['spam_limit', { window: { outcomes: 10, caps: 0, accountStops: 1 } }],
    [
      'sender_stopped',
      { sender: { quality: 'GREEN', previousQuality: 'GREEN', state: 'stopped' as const, stateReason: '131031 account locked' } },
    ],
  ])('trips on %s', (reason, patch) => {
    const v = evaluateBreaker({ ...calm, ...patch });
    expect(v).toMatchObject({ trip: true, reason });
    expect(v.trip && v.explanation.length > 20).toBe(true);
  });

  it('does not treat a quality rise as a drop', () => {
    expect(evaluateBreaker({ ...calm, sender: { quality: 'GREEN', previousQuality: 'YELLOW', state: 'ok', stateReason: null } })).toEqual({
      trip: false,
    });
  });
});
