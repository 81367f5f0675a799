import { describe, expect, it } from 'vitest';
import { decide } from './decide.js';
import { DEFAULT_POLICY, withCapPreset, type Policy } from './policy.js';
import { consentingContact, ev, intent, replay, T0 } from './test-support.js';
import { DAY, HOUR, MINUTE } from './time.js';

const P = DEFAULT_POLICY;
const base = () => consentingContact();

describe('rule 1: 131049 cools off marketing only', () => {
  const capped = () => replay([ev.failed(T0, 131049)], P, base());

  it('defers marketing until the cool-off ends, with the time in the sentence', () => {
    const d = decide(capped(), intent('marketing'), T0 + HOUR, P);
    expect(d).toMatchObject({ kind: 'defer', reason: 'marketing_cool_off', until: T0 + 24 * HOUR });
    expect(d.explanation).toContain(new Date(T0 + 24 * HOUR).toISOString());
    expect(d.explanation).toMatch(/Utility and service messages are unaffected/);
  });

  it('leaves utility, authentication and service untouched', () => {
    const s = replay([ev.inbound(T0 + 2 * HOUR)], P, capped());
    expect(decide(s, intent('utility'), T0 + 3 * HOUR, P)).toMatchObject({ kind: 'send', reason: 'eligible' });
    expect(decide(s, intent('authentication'), T0 + 3 * HOUR, P)).toMatchObject({ kind: 'send' });
    expect(decide(s, intent('service'), T0 + 3 * HOUR, P)).toMatchObject({ kind: 'send' });
  });

  it('is not an opt-out: marketing goes again once the cool-off has passed', () => {
    expect(decide(capped(), intent('marketing'), T0 + 24 * HOUR, P)).toMatchObject({ kind: 'send', reason: 'eligible' });
  });

  it('treats On-Premises 1026 as the cap only when configured', () => {
    const withCode: Policy = { ...P, capCodes: [131049, 1026] };
    const asCap = replay([ev.failed(T0, 1026)], withCode, base());
    expect(decide(asCap, intent('marketing'), T0 + HOUR, withCode)).toMatchObject({ kind: 'defer', reason: 'marketing_cool_off' });
    expect(decide(asCap, intent('utility'), T0 + HOUR, withCode)).toMatchObject({ kind: 'send' });
    const asDefault = replay([ev.failed(T0, 1026)], P, base());
    expect(decide(asDefault, intent('marketing'), T0 + HOUR, P)).toMatchObject({ kind: 'skip', reason: 'unreachable' });
  });
});

describe('rule 2: gaps grow with consecutive caps, bounded attempts per message', () => {
  it('waits 24 h, then 48 h, then 72 h with the default schedule', () => {
    let s = replay([ev.failed(T0, 131049)], P, base());
    expect(s.marketing.coolOffUntil).toBe(T0 + 24 * HOUR);
    s = replay([ev.failed(T0 + 25 * HOUR, 131049)], P, s);
    expect(s.marketing.coolOffUntil).toBe(T0 + 25 * HOUR + 48 * HOUR);
    s = replay([ev.failed(T0 + 80 * HOUR, 131049)], P, s);
    expect(s.marketing.coolOffUntil).toBe(T0 + 80 * HOUR + 72 * HOUR);
    s = replay([ev.failed(T0 + 200 * HOUR, 131049)], P, s);
    expect(s.marketing.coolOffUntil).toBe(T0 + 200 * HOUR + 72 * HOUR);
  });

  it('starts small again after a delivered marketing message', () => {
    const s = replay(
      [ev.failed(T0, 131049), ev.failed(T0 + 30 * HOUR, 131049), ev.delivered(T0 + 100 * HOUR), ev.failed(T0 + 120 * HOUR, 131049)],
      P,
      base(),
    );
    expect(s.marketing.consecutiveCaps).toBe(1);
    expect(s.marketing.coolOffUntil).toBe(T0 + 144 * HOUR);
  });

  it('ends the message capped_exhausted after the configured attempts, the contact staying eligible', () => {
    const s = replay([ev.failed(T0, 131049)], P, base());
    const d = decide(s, intent('marketing', { capAttempts: 3 }), T0 + 30 * DAY, P);
    expect(d).toMatchObject({ kind: 'skip', reason: 'capped_exhausted' });
    expect(decide(s, intent('marketing', { capAttempts: 0 }), T0 + 30 * DAY, P)).toMatchObject({ kind: 'send' });
  });

  it.each([
    ['12h', 12],
    ['24h', 24],
    ['48h', 48],
  ] as const)('takes the %s preset from configuration', (preset, hours) => {
    const policy = withCapPreset(P, preset);
    const s = replay([ev.failed(T0, 131049)], policy, consentingContact(policy));
    expect(decide(s, intent('marketing'), T0 + hours * HOUR - MINUTE, policy)).toMatchObject({ kind: 'defer', until: T0 + hours * HOUR });
    expect(decide(s, intent('marketing'), T0 + hours * HOUR, policy).kind).toBe('send');
  });
});

describe('rule 3: an open window lets marketing through during cool-off', () => {
  it('sends inside the customer-service window and defers again after it closes', () => {
    const s = replay([ev.failed(T0, 131049), ev.inbound(T0 + HOUR)], P, base());
    expect(decide(s, intent('marketing'), T0 + 2 * HOUR, P)).toMatchObject({ kind: 'send', reason: 'inside_window' });
    const later = replay([ev.failed(T0 + 30 * HOUR, 131049)], P, s);
    expect(decide(later, intent('marketing'), T0 + 31 * HOUR, P)).toMatchObject({ kind: 'defer', reason: 'marketing_cool_off' });
  });

  it('counts the 72 h free-entry-point window as open', () => {
    const s = replay([ev.failed(T0, 131049), ev.inbound(T0 - 10 * HOUR, 'from an ad', 'text', null, true)], P, base());
    expect(decide(s, intent('marketing'), T0 + 40 * MINUTE, P)).toMatchObject({ kind: 'send', reason: 'inside_window' });
  });
});

describe('rule 4: 130472 holds marketing for a window', () => {
  const held = () => replay([ev.failed(T0, 130472)], P, base());
  it('holds marketing, leaves utility alone, and releases when the contact writes in', () => {
    expect(decide(held(), intent('marketing'), T0 + DAY, P)).toMatchObject({ kind: 'hold', reason: 'experiment_group' });
    expect(decide(held(), intent('utility'), T0 + DAY, P)).toMatchObject({ kind: 'send' });
    const wrote = replay([ev.inbound(T0 + 2 * DAY)], P, held());
    expect(decide(wrote, intent('marketing'), T0 + 2 * DAY + MINUTE, P)).toMatchObject({ kind: 'send', reason: 'inside_window' });
    expect(decide(wrote, intent('marketing'), T0 + 4 * DAY, P)).toMatchObject({ kind: 'hold' });
  });
  it('re-checks once after the configured period, and never when it is null', () => {
    expect(decide(held(), intent('marketing'), T0 + 31 * DAY, P)).toMatchObject({ kind: 'send', reason: 'probe_after_quiet' });
    const never: Policy = { ...P, experimentRecheckMs: null };
    expect(decide(held(), intent('marketing'), T0 + 400 * DAY, never)).toMatchObject({ kind: 'hold' });
  });
});

describe('rule 5: the user stopped marketing', () => {
  it.each([
    ['131050 failure', ev.failed(T0, 131050)],
    ['user_preferences stop', ev.preference(T0, 'stop')],
    ['Stop promotions quick reply', ev.inbound(T0, 'Stop promotions', 'button', 'STOP_PROMO')],
    ['localised button', ev.inbound(T0, 'Parar promoções', 'button', 'x')],
    ['stop keyword', ev.inbound(T0, 'STOP!', 'text')],
    ['keyword in another language', ev.inbound(T0, 'Отписаться', 'text')],
  ])('%s skips marketing and leaves utility sendable', (_name, event) => {
    const s = replay([event], P, base());
    expect(decide(s, intent('marketing'), T0 + 60 * DAY, P)).toMatchObject({ kind: 'skip', reason: 'marketing_stopped' });
    expect(decide(s, intent('utility'), T0 + MINUTE, P)).toMatchObject({ kind: 'send' });
  });

  it('counts a tap on a button Pacer sent its stop payload with, even once the configured stop words changed', () => {
    const words: Policy = { ...P, stopButtons: ['nein danke'], stopKeywords: [] };
    const s = replay([ev.inbound(T0, 'Keine Werbung', 'button', 'STOP_PROMOTIONS')], words, base());
    expect(decide(s, intent('marketing'), T0 + DAY, words)).toMatchObject({ kind: 'skip', reason: 'marketing_stopped' });
    const other = replay([ev.inbound(T0, 'Keine Werbung', 'button', 'MORE_INFO')], words, base());
    expect(decide(other, intent('marketing'), T0 + DAY, words).kind).toBe('send');
  });

  it('lifts on a later resume, whatever order the two arrive in', () => {
    const stop = ev.preference(T0, 'stop');
    const resume = ev.preference(T0 + HOUR, 'resume');
    for (const order of [
      [stop, resume],
      [resume, stop],
    ]) {
      expect(decide(replay(order, P, base()), intent('marketing'), T0 + 2 * HOUR, P).kind).toBe('send');
    }
    expect(
      decide(replay([ev.preference(T0, 'resume'), ev.preference(T0 + HOUR, 'stop')], P, base()), intent('marketing'), T0 + 2 * HOUR, P)
        .kind,
    ).toBe('skip');
  });

  it('does not treat a sentence that merely contains "stop" as a keyword', () => {
    const s = replay([ev.inbound(T0, 'please do not stop sending me deals')], P, base());
    expect(decide(s, intent('marketing'), T0 + MINUTE, P).kind).toBe('send');
  });
});

describe('rule 6: 131026 marks the contact unreachable for every category', () => {
  const gone = () => replay([ev.failed(T0, 131026, 'utility')], P, base());
  it('skips every category until the quiet period, then probes once', () => {
    for (const c of ['marketing', 'utility', 'authentication'] as const) {
      expect(decide(gone(), intent(c), T0 + DAY, P)).toMatchObject({ kind: 'skip', reason: 'unreachable', until: T0 + 30 * DAY });
    }
    expect(decide(gone(), intent('utility'), T0 + 30 * DAY, P)).toMatchObject({ kind: 'send', reason: 'probe_after_quiet' });
  });
  it('is lifted when the contact writes in', () => {
    const s = replay([ev.inbound(T0 + DAY)], P, gone());
    expect(decide(s, intent('utility'), T0 + DAY + MINUTE, P)).toMatchObject({ kind: 'send', reason: 'eligible' });
  });
  it('also follows a synchronous 131026', () => {
    const s = replay([ev.sendError(T0, 131026, 'utility')], P, base());
    expect(decide(s, intent('utility'), T0 + HOUR, P).kind).toBe('skip');
  });
});

describe('rule 7: US marketing pause', () => {
  it('skips marketing to US numbers up front, not utility, and is configurable', () => {
    const us = intent('marketing', { recipientRegion: 'US' });
    expect(decide(base(), us, T0, P)).toMatchObject({ kind: 'skip', reason: 'us_marketing_pause' });
    expect(decide(base(), { ...us, category: 'utility' }, T0, P).kind).toBe('send');
    expect(decide(base(), intent('marketing', { recipientRegion: 'CA' }), T0, P).kind).toBe('send');
    expect(decide(base(), us, T0, { ...P, usMarketingPause: false }).kind).toBe('send');
  });
});

describe('rule 8: window, template and sender', () => {
  it('never sends free-form outside the customer-service window', () => {
    expect(decide(base(), intent('service'), T0, P)).toMatchObject({ kind: 'skip', reason: 'window_closed' });
    const s = replay([ev.inbound(T0)], P, base());
    expect(decide(s, intent('service'), T0 + 23 * HOUR, P).kind).toBe('send');
    expect(decide(s, intent('service'), T0 + 24 * HOUR, P).kind).toBe('skip');
  });
  it('defers a paused template until it unpauses and skips a disabled one', () => {
    const paused = intent('marketing', { template: { status: 'paused', pausedUntil: T0 + 3 * HOUR } });
    expect(decide(base(), paused, T0, P)).toMatchObject({ kind: 'defer', reason: 'template_paused', until: T0 + 3 * HOUR });
    const openEnded = intent('marketing', { template: { status: 'paused', pausedUntil: null } });
    expect(decide(base(), openEnded, T0, P)).toMatchObject({ kind: 'defer', reason: 'template_paused', until: T0 + HOUR });
    const disabled = intent('utility', { template: { status: 'disabled', pausedUntil: null } });
    expect(decide(base(), disabled, T0, P)).toMatchObject({ kind: 'skip', reason: 'template_unavailable' });
  });
  it('defers while the sender backs off, and while it is stopped (never dropping the message)', () => {
    expect(decide(base(), intent('utility', { sender: { state: 'throttled', until: T0 + 5000 } }), T0, P)).toMatchObject({
      kind: 'defer',
      reason: 'sender_throttled',
    });
    expect(decide(base(), intent('utility', { sender: { state: 'stopped', why: '131031 account locked' } }), T0, P)).toMatchObject({
      kind: 'defer',
      reason: 'sender_stopped',
      until: T0 + HOUR,
    });
  });
});

describe('rule 9: consent', () => {
  it('needs explicit opt-in per category and never overrides a revocation', () => {
    const none = replay([], P);
    expect(decide(none, intent('marketing'), T0, P)).toMatchObject({ kind: 'skip', reason: 'no_consent' });
    expect(decide(none, intent('utility'), T0, P)).toMatchObject({ kind: 'skip', reason: 'no_consent' });
    expect(decide(none, intent('authentication'), T0, P).kind).toBe('send');
    const revoked = replay([ev.consent(T0, 'utility', 'revoked')], P, base());
    expect(decide(revoked, intent('utility'), T0 + 1, P)).toMatchObject({ kind: 'skip', reason: 'consent_revoked' });
    const open = replay([ev.inbound(T0 + 2)], P, revoked);
    expect(decide(open, intent('utility'), T0 + 3, { ...P, consentRequired: { ...P.consentRequired, utility: false } }).kind).toBe('skip');
  });
  it('keeps the latest consent by its own time, not arrival order', () => {
    const s = replay([ev.consent(T0 + HOUR, 'marketing', 'revoked'), ev.consent(T0, 'marketing', 'granted')], P);
    expect(s.consent.marketing.status).toBe('revoked');
  });
});

describe('rule 10: our own frequency cap', () => {
  it('defers the third marketing message in 7 days until the oldest ages out', () => {
    const s = replay([ev.accepted(T0), ev.accepted(T0 + DAY)], P, base());
    expect(decide(s, intent('marketing'), T0 + 2 * DAY, P)).toMatchObject({ kind: 'defer', reason: 'frequency_cap', until: T0 + 7 * DAY });
    expect(decide(s, intent('marketing'), T0 + 7 * DAY, P).kind).toBe('send');
    expect(decide(s, intent('utility'), T0 + 2 * DAY, P).kind).toBe('send');
    expect(decide(s, intent('marketing'), T0 + 2 * DAY, { ...P, frequencyCap: null }).kind).toBe('send');
  });

  it('does not count a send that then failed: the contact never saw it', () => {
    const first = ev.accepted(T0);
    const second = ev.accepted(T0 + DAY);
    if (second.type !== 'send_accepted') throw new Error('send_accepted expected');
    const failed = { ...ev.failed(T0 + DAY + 60_000, 131049), messageId: second.messageId };
    const s = replay([first, second, failed], P, base());
    expect(s.marketing.recentSends).toHaveLength(1);
    expect(decide(s, intent('marketing'), T0 + 3 * DAY, P).kind).toBe('send');
  });
});

describe('rule 11: marketing path', () => {
  it('uses the Marketing Messages API when configured, and the Cloud API after a refusal', () => {
    const mm: Policy = { ...P, marketingPath: 'marketing_messages' };
    expect(decide(base(), intent('marketing'), T0, mm)).toMatchObject({ kind: 'send', path: 'marketing_messages' });
    expect(decide(base(), intent('marketing', { marketingApiRefused: true }), T0, mm)).toMatchObject({ path: 'cloud' });
    expect(decide(base(), intent('utility'), T0, mm)).toMatchObject({ path: 'cloud' });
  });
  it('tries the Marketing Messages API once after a cap, after the cool-off', () => {
    const after: Policy = { ...P, marketingPath: 'marketing_messages_after_cap', frequencyCap: null };
    const capped = replay([ev.failed(T0, 131049)], after, base());
    expect(decide(capped, intent('marketing'), T0 + HOUR, after).kind).toBe('defer');
    expect(decide(capped, intent('marketing'), T0 + DAY, after)).toMatchObject({
      kind: 'send',
      path: 'marketing_messages',
      reason: 'after_cap_marketing_api',
    });
    const tried = replay([ev.accepted(T0 + DAY, 'marketing', 'marketing_messages')], after, capped);
    expect(decide(tried, intent('marketing'), T0 + DAY + HOUR, after)).toMatchObject({ kind: 'send', path: 'cloud' });
    expect(decide(base(), intent('marketing'), T0, after)).toMatchObject({ path: 'cloud' });
  });
});

describe('rule 11: number-wide pacing', () => {
  const limit = (patch: Partial<{ perDay: number; used: number; contactCounted: boolean; nextSlotAt: number }> = {}) => ({
    perDay: 250,
    used: 250,
    contactCounted: false,
    nextSlotAt: T0 + 5 * HOUR,
    ...patch,
  });

  it('defers a template to a new person once the messaging limit is reached, until a place frees', () => {
    const d = decide(base(), intent('marketing', { messagingLimit: limit() }), T0, P);
    expect(d).toMatchObject({ kind: 'defer', reason: 'messaging_limit', until: T0 + 5 * HOUR });
    expect(d.explanation).toMatch(/250 different people per rolling 24 h/);
    expect(decide(base(), intent('utility', { messagingLimit: limit() }), T0, P)).toMatchObject({
      kind: 'defer',
      reason: 'messaging_limit',
    });
  });

  it('lets through people already counted, sends under the limit, and never limits inside an open window', () => {
    expect(decide(base(), intent('marketing', { messagingLimit: limit({ contactCounted: true }) }), T0, P).kind).toBe('send');
    expect(decide(base(), intent('marketing', { messagingLimit: limit({ used: 249 }) }), T0, P).kind).toBe('send');
    const open = replay([ev.inbound(T0 - HOUR)], P, base());
    expect(decide(open, intent('marketing', { messagingLimit: limit() }), T0, P)).toMatchObject({ kind: 'send', reason: 'inside_window' });
    expect(decide(open, intent('service', { messagingLimit: limit() }), T0, P).kind).toBe('send');
  });

  it('does not turn a skip into a wait: a stopped contact is skipped whatever the limit', () => {
    const stopped = replay([ev.preference(T0 - HOUR, 'stop')], P, base());
    expect(decide(stopped, intent('marketing', { messagingLimit: limit() }), T0, P)).toMatchObject({
      kind: 'skip',
      reason: 'marketing_stopped',
    });
  });

  it('spaces two messages to one person by the pair-rate gap', () => {
    const d = decide(base(), intent('utility', { lastSentToContactAt: T0 - 2000 }), T0, P);
    expect(d).toMatchObject({ kind: 'defer', reason: 'pair_rate', until: T0 + 4000 });
    expect(decide(base(), intent('utility', { lastSentToContactAt: T0 - 6000 }), T0, P).kind).toBe('send');
    expect(decide(base(), intent('utility', { lastSentToContactAt: null }), T0, P).kind).toBe('send');
  });
});

describe('business-scoped user ids: authentication needs the phone number', () => {
  it('refuses an authentication template to a contact known only by BSUID, naming 131062', () => {
    const d = decide(base(), intent('authentication', { addressedBy: 'user_id' }), T0, P);
    expect(d).toMatchObject({ kind: 'skip', reason: 'needs_phone_number', until: null });
    expect(d.explanation).toContain('131062');
  });

  it('sends other categories to a BSUID, and authentication to a phone number', () => {
    for (const category of ['marketing', 'utility', 'service'] as const) {
      const s = replay([ev.inbound(T0)], P, base());
      expect(decide(s, intent(category, { addressedBy: 'user_id' }), T0 + MINUTE, P).kind).toBe('send');
    }
    expect(decide(base(), intent('authentication', { addressedBy: 'phone' }), T0, P).kind).toBe('send');
    expect(decide(base(), intent('authentication'), T0, P).kind).toBe('send');
  });
});
