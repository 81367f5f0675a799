import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { diagnose } from './diagnose.js';
import type { DiagnosisFacts, SenderSignal, TemplateUsage } from './diagnosis-facts.js';
import { DAY } from './time.js';

const n = fc.integer({ min: 0, max: 500 });
const code = fc.constantFrom(131049, 130472, 131050, 131026, 131048, 131031, 131008, 132015, 1026);

const template: fc.Arbitrary<TemplateUsage> = fc.record({
  label: fc.constantFrom('a (en)', 'b (en)', 'c (pt_BR)'),
  templateId: fc.option(fc.integer({ min: 1, max: 9 }), { nil: null }),
  category: fc.constantFrom('marketing' as const, 'utility' as const),
  status: fc.constantFrom(null, 'approved', 'paused', 'disabled'),
  quality: fc.constantFrom(null, 'GREEN', 'YELLOW', 'RED', 'UNKNOWN'),
  messages: n,
  recipients: n,
  delivered: n,
  read: n,
  failed: n,
  capped: n,
  stopped: n,
  silent: n,
});

const sender: fc.Arbitrary<SenderSignal> = fc.record({
  phoneNumberId: fc.constantFrom('1065', '2077'),
  quality: fc.constantFrom(null, 'GREEN', 'YELLOW', 'FLAGGED', 'RED'),
  state: fc.constantFrom('ok' as const, 'throttled' as const, 'stopped' as const),
  reason: fc.constantFrom(null, '130429 Rate limit hit', 'account_update ACCOUNT_RESTRICTION', '131031 Business account locked'),
});

const facts: fc.Arbitrary<DiagnosisFacts> = fc.record({
  since: fc.constant(0),
  until: fc.constant(7 * DAY),
  campaign: fc.constant(null),
  sends: fc.record({ messages: n, recipients: n, attempts: n }),
  failures: fc.array(fc.record({ code, messages: n, recipients: n }), { maxLength: 5 }),
  failing: fc.record({ recipients: n, attempts: n, repeated: n, worst: n }),
  templates: fc.array(template, { maxLength: 4 }),
  campaigns: fc.array(
    template.map(({ templateId, status: _s, quality: _q, ...rest }) => ({ ...rest, campaignId: templateId ?? 1 })),
    { maxLength: 3 },
  ),
  consent: fc.record({ recipients: n, granted: n, revoked: n, unknown: n, sources: fc.constant([]) }),
  engagement: fc.record({ delivered: n, read: n, replied: n, stopped: n, stopKinds: fc.constant([]), silent: n }),
  volume: fc.record({ attempts: n, days: fc.double({ min: 0, max: 30, noNaN: true }), baselineAttempts: n, baselineDays: fc.constant(28) }),
  senders: fc.array(sender, { maxLength: 2 }),
  numbers: fc.array(
    fc.record({
      phoneNumberId: fc.constantFrom('1065', '2077'),
      messages: n,
      failed: n,
      topCode: fc.option(fc.constant(131049), { nil: null }),
    }),
    { maxLength: 3 },
  ),
  senderEvents: fc.array(
    sender.map((s) => ({ ...s, at: 0, source: 'phone_quality FLAGGED' })),
    { maxLength: 2 },
  ),
  pauses: fc.constant([]),
});

describe('diagnose (properties)', () => {
  it('always answers one verdict with an action, and never prints NaN or Infinity', () => {
    fc.assert(
      fc.property(facts, (f) => {
        const d = diagnose(f, [131049]);
        expect(['recipient_level', 'campaign_level', 'account_level', 'insufficient_data']).toContain(d.verdict);
        expect(d.action.length).toBeGreaterThan(0);
        for (const e of d.evidence) expect(e.text).not.toMatch(/NaN|Infinity/);
      }),
    );
  });

  it('puts a stopped sender above every other signal; campaign verdicts name a subject; verdicts show their grounds', () => {
    fc.assert(
      fc.property(facts, (f) => {
        const d = diagnose(f, [131049]);
        if (f.senders.some((s) => s.state === 'stopped')) expect(d.verdict).toBe('account_level');
        if (d.verdict === 'campaign_level') expect(d.subject).not.toBeNull();
        // A verdict that blames someone always shows the observations it rests on.
        if (d.verdict !== 'insufficient_data') expect(d.evidence.filter((e) => e.decisive).length).toBeGreaterThan(0);
      }),
    );
  });

  it('never blames the account without an account signal', () => {
    fc.assert(
      fc.property(facts, (f) => {
        const clean = {
          ...f,
          senders: f.senders.map((s) => ({ ...s, state: 'ok' as const, quality: 'GREEN' })),
          failures: f.failures.filter((c) => c.code !== 131048 && c.code !== 131031),
        };
        expect(diagnose(clean, [131049]).verdict).not.toBe('account_level');
      }),
    );
  });
});
