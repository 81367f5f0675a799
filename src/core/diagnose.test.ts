import { describe, expect, it } from 'vitest';
import { diagnose } from './diagnose.js';
import { DEFAULT_DIAGNOSE_THRESHOLDS, type CampaignUsage, type DiagnosisFacts, type TemplateUsage } from './diagnosis-facts.js';
import { DAY } from './time.js';

const CAP = [131049];
const T0 = Date.UTC(2026, 0, 10);

function usage(over: Partial<TemplateUsage> = {}): TemplateUsage {
  return {
    label: 'spring_sale (en_US)',
    templateId: 1,
    category: 'marketing',
    status: 'approved',
    quality: 'GREEN',
    messages: 200,
    recipients: 200,
    delivered: 150,
    read: 90,
    failed: 40,
    capped: 36,
    stopped: 2,
    silent: 0,
    ...over,
  };
}

/** A campaign of 200 with a thin, normal per-user cap: the baseline every test bends. */
function facts(over: Partial<DiagnosisFacts> = {}): DiagnosisFacts {
  return {
    since: T0 - 7 * DAY,
    until: T0,
    campaign: null,
    sends: { messages: 200, recipients: 200, attempts: 230 },
    failures: [
      { code: 131049, messages: 36, recipients: 36 },
      { code: 131026, messages: 4, recipients: 4 },
    ],
    failing: { recipients: 40, attempts: 70, repeated: 0, worst: 2 },
    templates: [usage()],
    campaigns: [],
    consent: { recipients: 40, granted: 40, revoked: 0, unknown: 0, sources: [{ source: 'import', recipients: 40 }] },
    engagement: { delivered: 150, read: 90, replied: 12, stopped: 2, stopKinds: [{ kind: 'user_preferences', recipients: 2 }], silent: 0 },
    volume: { attempts: 230, days: 7, baselineAttempts: 200, baselineDays: 28 },
    senders: [{ phoneNumberId: '1065', quality: 'GREEN', state: 'ok', reason: null }],
    numbers: [],
    senderEvents: [],
    pauses: [],
    ...over,
  };
}

describe('diagnose', () => {
  it('calls a thin per-user cap recipient_level and says to wait', () => {
    const d = diagnose(facts(), CAP);
    expect(d.verdict).toBe('recipient_level');
    expect(d.subject).toBeNull();
    expect(d.action).toMatch(/cool-off/);
    const decisive = d.evidence.filter((e) => e.decisive).map((e) => e.text);
    expect(decisive[0]).toContain('90.0% of failed messages are per-user caps (36 of 40)');
    expect(decisive[1]).toContain('spread thinly');
    // The whole investigation is reported, not only what decided.
    expect(new Set(d.evidence.map((e) => e.topic))).toEqual(new Set(['scope', 'templates', 'consent', 'engagement', 'volume', 'account']));
  });

  it('reports recipients that fail repeatedly as concentration, still recipient_level', () => {
    const d = diagnose(facts({ failing: { recipients: 40, attempts: 130, repeated: 12, worst: 5 } }), CAP);
    expect(d.verdict).toBe('recipient_level');
    expect(
      d.evidence
        .filter((e) => e.decisive)
        .map((e) => e.text)
        .join(' '),
    ).toContain('12 of 40 failing recipient(s) (30.0%) failed 3 or more times');
  });

  it('says insufficient_data when nothing was sent', () => {
    const d = diagnose(
      facts({
        sends: { messages: 0, recipients: 0, attempts: 0 },
        failures: [],
        failing: { recipients: 0, attempts: 0, repeated: 0, worst: 0 },
        templates: [],
      }),
      CAP,
    );
    expect(d.verdict).toBe('insufficient_data');
    expect(d.summary).toMatch(/Nothing was sent/);
  });

  it('says insufficient_data below the minimum sample, and recipient_level at it', () => {
    const small = (n: number) =>
      facts({
        sends: { messages: n, recipients: n, attempts: n },
        templates: [usage({ messages: n, recipients: n, stopped: 0 })],
        consent: { recipients: 5, granted: 5, revoked: 0, unknown: 0, sources: [] },
      });
    expect(diagnose(small(DEFAULT_DIAGNOSE_THRESHOLDS.minMessages - 1), CAP).verdict).toBe('insufficient_data');
    expect(diagnose(small(DEFAULT_DIAGNOSE_THRESHOLDS.minMessages), CAP).verdict).toBe('recipient_level');
  });

  it('says insufficient_data when nothing failed', () => {
    const d = diagnose(
      facts({ failures: [], failing: { recipients: 0, attempts: 0, repeated: 0, worst: 0 }, templates: [usage({ failed: 0, capped: 0 })] }),
      CAP,
    );
    expect(d.verdict).toBe('insufficient_data');
    expect(d.summary).toMatch(/No message in this scope failed/);
  });

  it('does not pretend to judge failures that are mostly bad requests', () => {
    const d = diagnose(
      facts({
        failures: [
          { code: 131008, messages: 30, recipients: 30 },
          { code: 131049, messages: 10, recipients: 10 },
        ],
      }),
      CAP,
    );
    expect(d.verdict).toBe('insufficient_data');
    expect(d.action).toContain('pacer explain 131008');
  });

  it('names the template whose quality dropped: campaign_level', () => {
    const bad = usage({ label: 'flash_blast (en_US)', templateId: 2, quality: 'RED', messages: 100, recipients: 100 });
    const d = diagnose(facts({ templates: [usage(), bad] }), CAP);
    expect(d.verdict).toBe('campaign_level');
    expect(d.subject).toBe('flash_blast (en_US)');
    expect(d.action).toContain('flash_blast (en_US)');
    expect(d.evidence[0]).toMatchObject({ decisive: true, text: expect.stringContaining('quality is RED') });
  });

  it('counts a YELLOW template as a weak signal: alone it decides nothing, with low reads it does', () => {
    expect(diagnose(facts({ templates: [usage({ quality: 'YELLOW' })] }), CAP).verdict).toBe('recipient_level');
    const d = diagnose(facts({ templates: [usage({ quality: 'YELLOW', read: 10 })] }), CAP);
    expect(d).toMatchObject({ verdict: 'campaign_level', subject: 'spring_sale (en_US)' });
    expect(d.evidence.filter((e) => e.decisive).map((e) => e.text)).toEqual([
      'Template spring_sale (en_US) quality fell to YELLOW.',
      'Only 6.7% of delivered spring_sale (en_US) messages were read.',
    ]);
  });

  it('names the worse of two flagged templates first', () => {
    const yellow = usage({ quality: 'YELLOW', read: 10 });
    const red = usage({ label: 'flash_blast (en_US)', templateId: 2, quality: 'RED', stopped: 20 });
    expect(diagnose(facts({ templates: [yellow, red] }), CAP).subject).toBe('flash_blast (en_US)');
  });

  it('names a paused template even with few messages', () => {
    const d = diagnose(
      facts({ templates: [usage(), usage({ label: 'promo (pt_BR)', templateId: 3, status: 'paused', messages: 3, recipients: 3 })] }),
      CAP,
    );
    expect(d.verdict).toBe('campaign_level');
    expect(d.subject).toBe('promo (pt_BR)');
  });

  it('treats a stop rate at the threshold as campaign_level and just below it as not', () => {
    const at = usage({ recipients: 200, stopped: 10 }); // 5.0%
    expect(diagnose(facts({ templates: [at] }), CAP)).toMatchObject({ verdict: 'campaign_level', subject: 'spring_sale (en_US)' });
    expect(diagnose(facts({ templates: [usage({ recipients: 200, stopped: 9 })] }), CAP).verdict).toBe('recipient_level');
  });

  it('needs two weak signals: low reads alone is not enough, low reads and silence are', () => {
    const lowReads = usage({ read: 10 });
    expect(diagnose(facts({ templates: [lowReads] }), CAP).verdict).toBe('recipient_level');
    const d = diagnose(facts({ templates: [usage({ read: 10, silent: 12 })] }), CAP);
    expect(d.verdict).toBe('campaign_level');
    expect(
      d.evidence
        .filter((e) => e.decisive)
        .map((e) => e.text)
        .join(' '),
    ).toMatch(/block proxy/);
  });

  it('compares a template cap rate with the other templates of its category', () => {
    const capped = usage({ label: 'daily_deal (en_US)', templateId: 4, capped: 120, failed: 120, read: 10 });
    const d = diagnose(facts({ templates: [usage(), capped] }), CAP);
    expect(d.verdict).toBe('campaign_level');
    expect(d.subject).toBe('daily_deal (en_US)');
    expect(d.evidence.map((e) => e.text).join(' ')).toContain('capped on 60.0% of its messages against 18.0%');
    // Alone in its category there is nothing to compare with: the same numbers are no excess.
    expect(diagnose(facts({ templates: [capped] }), CAP).verdict).toBe('recipient_level');
  });

  it('names the campaign whose segment reacts worse when its template does not stand out', () => {
    const segment = (id: number, over: Partial<CampaignUsage> = {}): CampaignUsage => ({
      ...usage(),
      label: `campaign #${id} c${id}`,
      campaignId: id,
      messages: 100,
      recipients: 100,
      ...over,
    });
    const cold = segment(2, { stopped: 8, capped: 40, read: 20 });
    const d = diagnose(facts({ campaigns: [segment(1, { stopped: 1, capped: 10 }), cold] }), CAP);
    expect(d).toMatchObject({ verdict: 'campaign_level', subject: 'campaign #2 c2' });
    expect(d.action).toContain('Narrow the segment of campaign #2 c2');
    expect(d.evidence.filter((e) => e.decisive)).toEqual([
      { topic: 'campaigns', decisive: true, text: '8 of 100 recipient(s) of campaign #2 c2 stopped marketing (8.0%, threshold 5.0%).' },
      {
        topic: 'campaigns',
        decisive: true,
        text: 'campaign #2 c2 is capped on 40.0% of its messages against 10.0% for the other marketing campaigns.',
      },
    ]);
    // A lone campaign has nothing to be compared with; a flagged template is named before any segment.
    expect(diagnose(facts({ campaigns: [cold] }), CAP).verdict).toBe('recipient_level');
    expect(diagnose(facts({ campaigns: [segment(1), cold], templates: [usage({ quality: 'RED' })] }), CAP).subject).toBe(
      'spring_sale (en_US)',
    );
  });

  it('flags an audience that mostly never granted marketing consent', () => {
    const d = diagnose(
      facts({ consent: { recipients: 40, granted: 20, revoked: 0, unknown: 20, sources: [{ source: 'crm', recipients: 40 }] } }),
      CAP,
    );
    expect(d.verdict).toBe('campaign_level');
    expect(d.subject).toBe('audience without granted marketing consent');
    expect(d.evidence[0]).toMatchObject({ topic: 'consent', decisive: true, text: expect.stringContaining('Only 50.0% of 40') });
  });

  it('puts a quality drop of the number above everything else: account_level', () => {
    const d = diagnose(
      facts({
        senders: [{ phoneNumberId: '1065', quality: 'FLAGGED', state: 'ok', reason: null }],
        templates: [usage({ quality: 'RED' })],
      }),
      CAP,
    );
    expect(d.verdict).toBe('account_level');
    expect(d.subject).toBe('sender 1065');
    expect(d.evidence[0]?.text).toContain('quality rating is FLAGGED');
  });

  it('calls a stopped sender or an account restriction account_level, but not a throughput throttle', () => {
    const stopped = diagnose(
      facts({ senders: [{ phoneNumberId: '1065', quality: 'GREEN', state: 'stopped', reason: '131031 Business account locked' }] }),
      CAP,
    );
    expect(stopped.verdict).toBe('account_level');
    const restricted = diagnose(
      facts({
        senders: [
          {
            phoneNumberId: '1065',
            quality: 'GREEN',
            state: 'throttled',
            reason: 'account_update ACCOUNT_RESTRICTION (RESTRICTED_ADD_PHONE_NUMBER_ACTION)',
          },
        ],
      }),
      CAP,
    );
    expect(restricted.verdict).toBe('account_level');
    const throttled = diagnose(
      facts({ senders: [{ phoneNumberId: '1065', quality: 'GREEN', state: 'throttled', reason: '130429 Rate limit hit' }] }),
      CAP,
    );
    expect(throttled.verdict).toBe('recipient_level');
  });

  it('counts a restriction lifted within the window as account_level, and lists quality changes as evidence', () => {
    const restricted = {
      phoneNumberId: '1065',
      at: T0 - 2 * DAY,
      source: 'account_update ACCOUNT_RESTRICTION',
      quality: 'GREEN',
      state: 'throttled' as const,
      reason: 'account_update ACCOUNT_RESTRICTION',
    };
    const lifted = diagnose(facts({ senderEvents: [restricted] }), CAP);
    expect(lifted.verdict).toBe('account_level');
    expect(lifted.evidence[0]?.text).toBe(
      'Sender 1065 was restricted within the window (account_update ACCOUNT_RESTRICTION), since lifted.',
    );
    expect(lifted.evidence.map((e) => e.text)).toContain(
      '2026-01-08T00:00:00.000Z sender 1065 account_update ACCOUNT_RESTRICTION: quality GREEN, throttled (account_update ACCOUNT_RESTRICTION).',
    );
    // A quality drop that recovered, or a throughput throttle, is reported but blames nobody.
    const recovered = { ...restricted, source: 'phone_quality FLAGGED', quality: 'FLAGGED', state: 'ok' as const, reason: null };
    const d = diagnose(
      facts({ senderEvents: [recovered, { ...recovered, source: 'phone_quality UNFLAGGED', quality: 'GREEN', at: T0 - DAY }] }),
      CAP,
    );
    expect(d.verdict).toBe('recipient_level');
    expect(d.evidence.filter((e) => e.topic === 'account').map((e) => e.text)).toHaveLength(3);
  });

  it('names the template Meta refuses (132001) campaign_level even from one message', () => {
    const d = diagnose(
      facts({
        sends: { messages: 1, recipients: 1, attempts: 1 },
        failures: [{ code: 132001, messages: 1, recipients: 1 }],
        templates: [usage({ messages: 1, recipients: 1, delivered: 0, read: 0, failed: 1, capped: 0, stopped: 0 })],
      }),
      CAP,
    );
    expect(d).toMatchObject({ verdict: 'campaign_level', subject: 'spring_sale (en_US)' });
    expect(d.evidence[0]).toMatchObject({
      decisive: true,
      text: expect.stringContaining('1 message(s) refused with 132001 (Template does not exist)'),
    });
    expect(d.action).toContain('pacer explain 132001');
    // A template refusal that is not in the campaign-pausing list (132005, one recipient's long text) decides nothing alone.
    const long = diagnose(
      facts({ sends: { messages: 1, recipients: 1, attempts: 1 }, failures: [{ code: 132005, messages: 1, recipients: 1 }] }),
      CAP,
    );
    expect(long.verdict).toBe('insufficient_data');
  });

  it('treats account-level error codes as account_level even with no sends that succeeded', () => {
    const d = diagnose(
      facts({ sends: { messages: 5, recipients: 5, attempts: 5 }, failures: [{ code: 131048, messages: 5, recipients: 5 }] }),
      CAP,
    );
    expect(d.verdict).toBe('account_level');
    expect(d.subject).toBe('the WhatsApp Business account');
    expect(d.evidence[0]?.text).toContain('5 message(s) refused with 131048');
  });

  it('counts extra cap codes from the policy as per-user caps', () => {
    const f = facts({ failures: [{ code: 1026, messages: 36, recipients: 36 }] });
    expect(diagnose(f, [131049, 1026]).verdict).toBe('recipient_level');
    expect(diagnose(f, CAP).verdict).toBe('recipient_level'); // 1026 alone reads as undeliverable: still recipient-side
    expect(diagnose(f, [131049, 1026]).evidence.filter((e) => e.decisive)[0]?.text).toContain(
      '100.0% of failed messages are per-user caps',
    );
  });

  it('reports a volume spike against the baseline, and says when there is no baseline', () => {
    const spike = diagnose(facts({ volume: { attempts: 700, days: 7, baselineAttempts: 400, baselineDays: 28 } }), CAP);
    expect(spike.evidence.find((e) => e.topic === 'volume')?.text).toContain(
      '100 send attempt(s) per day against 14 per day before (7.0x) — a sharp rise',
    );
    const none = diagnose(facts({ volume: { attempts: 70, days: 7, baselineAttempts: 0, baselineDays: 28 } }), CAP);
    expect(none.evidence.find((e) => e.topic === 'volume')?.text).toContain('no sends in the 28 day(s) before');
  });

  it('takes thresholds from the caller', () => {
    const d = diagnose(facts(), CAP, { ...DEFAULT_DIAGNOSE_THRESHOLDS, stopRate: 0.01 });
    expect(d).toMatchObject({ verdict: 'campaign_level', subject: 'spring_sale (en_US)' });
  });

  it('names the number a wave of failures belongs to, and stays quiet when they are spread evenly', () => {
    const wave = diagnose(
      facts({
        numbers: [
          { phoneNumberId: '2077', messages: 100, failed: 36, topCode: 131049 },
          { phoneNumberId: '1065', messages: 100, failed: 4, topCode: 131026 },
        ],
      }),
      CAP,
    );
    const texts = wave.evidence.map((e) => e.text);
    expect(texts).toContain(
      'The failures concentrate on number 2077: 36 of 40 failed message(s), 36.0% of what it sent against 4.0% from the other numbers.',
    );
    expect(texts).toContain('Number 1065: 100 message(s), 4 failed (4.0%), mostly 131026.');
    const even = diagnose(
      facts({
        numbers: [
          { phoneNumberId: '2077', messages: 100, failed: 20, topCode: 131049 },
          { phoneNumberId: '1065', messages: 100, failed: 20, topCode: 131049 },
        ],
      }),
      CAP,
    );
    expect(even.evidence.some((e) => e.text.startsWith('The failures concentrate'))).toBe(false);
    // One number: nothing to compare.
    const one = diagnose(facts({ numbers: [{ phoneNumberId: '1065', messages: 200, failed: 40, topCode: 131049 }] }), CAP);
    expect(one.evidence.some((e) => e.text.startsWith('Number '))).toBe(false);
  });
});
