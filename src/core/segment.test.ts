import { describe, expect, it } from 'vitest';
import { EMPTY_CONTACT_STATE } from './contact-state.js';
import { DEFAULT_POLICY } from './policy.js';
import { matchesSegment, reachability } from './segment.js';
import { consentingContact, ev, replay, T0 } from './test-support.js';
import { DAY, HOUR } from './time.js';

const vip = { tags: ['vip', 'sp'], attributes: { city: 'São Paulo', tier: 2 } };

describe('matchesSegment', () => {
  it('filters on tags, attributes and consent', () => {
    const s = consentingContact();
    expect(matchesSegment(vip, s, { tagsAll: ['vip'], attributes: { city: 'são paulo', tier: 2 }, consent: ['marketing'] }, T0)).toBe(true);
    expect(matchesSegment(vip, s, { tagsAny: ['gold', 'silver'] }, T0)).toBe(false);
    expect(matchesSegment(vip, s, { tagsNone: ['sp'] }, T0)).toBe(false);
    expect(matchesSegment(vip, s, { attributes: { tier: '2' } }, T0)).toBe(false);
    expect(matchesSegment(vip, EMPTY_CONTACT_STATE, { consent: ['marketing'] }, T0)).toBe(false);
  });

  it('filters on engagement in the last N days', () => {
    const read = replay([ev.read(T0 - 10 * DAY, 'utility')], DEFAULT_POLICY, consentingContact());
    expect(matchesSegment(vip, read, { engagedWithinDays: 30 }, T0)).toBe(true);
    expect(matchesSegment(vip, read, { engagedWithinDays: 7 }, T0)).toBe(false);
    expect(matchesSegment(vip, replay([ev.inbound(T0 - DAY)]), { engagedWithinDays: 7 }, T0)).toBe(true);
  });

  it('excludes contacts cooling off, held, stopped or unreachable', () => {
    const capped = replay([ev.failed(T0, 131049)]);
    expect(reachability(capped, T0 + HOUR)).toEqual(['cooling_off']);
    expect(matchesSegment(vip, capped, { exclude: ['cooling_off'] }, T0 + HOUR)).toBe(false);
    expect(matchesSegment(vip, capped, { exclude: ['cooling_off'] }, T0 + 2 * DAY)).toBe(true);
    expect(reachability(replay([ev.failed(T0, 130472), ev.failed(T0, 131050), ev.failed(T0, 131026)]), T0)).toEqual([
      'held',
      'stopped',
      'unreachable',
    ]);
  });
});
