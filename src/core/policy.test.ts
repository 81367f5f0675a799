import { describe, expect, it } from 'vitest';
import { decide } from './decide.js';
import { DEFAULT_POLICY, policyForCampaign, type Policy } from './policy.js';
import { planRetry } from './retry-plan.js';
import { consentingContact, ev, intent, replay, T0 } from './test-support.js';
import { DAY, HOUR, MINUTE } from './time.js';

const P = DEFAULT_POLICY;
const EMPTY = replay([]);

describe('policy knobs decide honours', () => {
  it('a frequency cap of 3 per 14 days lets the third message go and defers the fourth', () => {
    const cap: Policy = { ...P, frequencyCap: { max: 3, windowMs: 14 * DAY } };
    const two = replay([ev.accepted(T0), ev.accepted(T0 + DAY)], cap, consentingContact());
    expect(decide(two, intent('marketing'), T0 + 2 * DAY, P).kind).toBe('defer');
    expect(decide(two, intent('marketing'), T0 + 2 * DAY, cap).kind).toBe('send');
    const three = replay([ev.accepted(T0 + 2 * DAY)], cap, two);
    const d = decide(three, intent('marketing'), T0 + 3 * DAY, cap);
    expect(d).toMatchObject({ kind: 'defer', reason: 'frequency_cap', until: T0 + 14 * DAY });
    expect(d.explanation).toContain('3 marketing messages in the last 14 days (your frequency cap)');
  });

  it('names a window shorter than a day in hours', () => {
    const cap: Policy = { ...P, frequencyCap: { max: 1, windowMs: 12 * HOUR } };
    const d = decide(replay([ev.accepted(T0)], cap, consentingContact()), intent('marketing'), T0 + HOUR, cap);
    expect(d).toMatchObject({ kind: 'defer', reason: 'frequency_cap', until: T0 + 12 * HOUR });
    expect(d.explanation).toContain('1 marketing message in the last 12 h');
  });

  it('sends utility without recorded consent when utility consent is not required; revoked still stops it', () => {
    const optional: Policy = { ...P, consentRequired: { ...P.consentRequired, utility: false } };
    expect(decide(EMPTY, intent('utility'), T0, P)).toMatchObject({ kind: 'skip', reason: 'no_consent' });
    expect(decide(EMPTY, intent('utility'), T0, optional)).toMatchObject({ kind: 'send', reason: 'eligible' });
    expect(decide(EMPTY, intent('marketing'), T0, optional)).toMatchObject({ kind: 'skip', reason: 'no_consent' });
    const revoked = replay([ev.consent(T0 - HOUR, 'utility', 'revoked')]);
    expect(decide(revoked, intent('utility'), T0, optional)).toMatchObject({ kind: 'skip', reason: 'consent_revoked' });
  });

  it('requires authentication consent when configured to', () => {
    const strict: Policy = { ...P, consentRequired: { ...P.consentRequired, authentication: true } };
    expect(decide(EMPTY, intent('authentication'), T0, P).kind).toBe('send');
    expect(decide(EMPTY, intent('authentication'), T0, strict)).toMatchObject({ kind: 'skip', reason: 'no_consent' });
  });

  it('re-probes an unreachable number after the configured quiet period', () => {
    const quick: Policy = { ...P, unreachableQuietMs: 2 * DAY };
    const s = replay([ev.failed(T0, 131026)], P, consentingContact());
    expect(decide(s, intent('utility'), T0 + 3 * DAY, P)).toMatchObject({ kind: 'skip', reason: 'unreachable', until: T0 + 30 * DAY });
    expect(decide(s, intent('utility'), T0 + 3 * DAY, quick)).toMatchObject({ kind: 'send', reason: 'probe_after_quiet' });
  });

  it('spaces messages to one person by the configured pair-rate gap', () => {
    const wide: Policy = { ...P, pairRateGapMs: MINUTE };
    const last = { lastSentToContactAt: T0 };
    expect(decide(consentingContact(), intent('utility', last), T0 + 10_000, P).kind).toBe('send');
    expect(decide(consentingContact(), intent('utility', last), T0 + 10_000, wide)).toMatchObject({
      kind: 'defer',
      reason: 'pair_rate',
      until: T0 + MINUTE,
    });
  });

  it('looks again at a template paused with no end after the configured recheck', () => {
    const paused = intent('marketing', { template: { status: 'paused', pausedUntil: null } });
    expect(decide(consentingContact(), paused, T0, { ...P, blockedRecheckMs: 15 * MINUTE })).toMatchObject({
      kind: 'defer',
      reason: 'template_paused',
      until: T0 + 15 * MINUTE,
    });
  });

  it('ends a message after the configured cap attempts, in decide and in the retry plan', () => {
    const two: Policy = { ...P, capRetry: { ...P.capRetry, maxAttemptsPerMessage: 2 } };
    const s = consentingContact();
    expect(decide(s, intent('marketing', { capAttempts: 2 }), T0, P).kind).toBe('send');
    expect(decide(s, intent('marketing', { capAttempts: 2 }), T0, two)).toMatchObject({ kind: 'skip', reason: 'capped_exhausted' });
    expect(planRetry(131049, T0, { failures: 2, capFailures: 2 }, two, 0)).toMatchObject({ kind: 'give_up', outcome: 'capped_exhausted' });
    expect(planRetry(131049, T0, { failures: 2, capFailures: 2 }, P, 0)).toMatchObject({ kind: 'redecide' });
  });

  it('backs a sender off by the configured schedule', () => {
    const slow: Policy = { ...P, senderBackoff: { baseMs: 30_000, maxMs: 10 * MINUTE, maxAttempts: 2 } };
    expect(planRetry(130429, T0, { failures: 1, capFailures: 0 }, slow, 0)).toEqual({
      kind: 'retry_at',
      at: T0 + 30_000,
      why: 'sender throttle backoff, retry 1',
    });
    expect(planRetry(130429, T0, { failures: 3, capFailures: 0 }, slow, 0)).toMatchObject({ kind: 'give_up', outcome: 'failed' });
  });
});

describe('policyForCampaign', () => {
  it("applies a campaign's own frequency cap to its rows, and turns it off with max 0", () => {
    const s = replay([ev.accepted(T0)], P, consentingContact());
    const one = policyForCampaign(P, { frequencyCap: { max: 1, windowMs: 30 * DAY } });
    expect(decide(s, intent('marketing'), T0 + DAY, P).kind).toBe('send');
    expect(decide(s, intent('marketing'), T0 + DAY, one)).toMatchObject({ kind: 'defer', reason: 'frequency_cap', until: T0 + 30 * DAY });
    const twice = replay([ev.accepted(T0 + HOUR)], P, s);
    expect(decide(twice, intent('marketing'), T0 + DAY, P).kind).toBe('defer');
    expect(decide(twice, intent('marketing'), T0 + DAY, policyForCampaign(P, { frequencyCap: { max: 0, windowMs: 0 } })).kind).toBe('send');
  });

  it('keeps the installation policy itself when the campaign sets nothing', () => {
    expect(policyForCampaign(P, null)).toBe(P);
    expect(policyForCampaign(P, {})).toBe(P);
    expect(policyForCampaign(P, { frequencyCap: null })).toBe(P);
  });
});
