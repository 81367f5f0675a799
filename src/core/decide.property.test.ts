import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CATEGORIES, type Category } from './category.js';
import type { ContactEvent } from './contact-event.js';
import { EMPTY_CONTACT_STATE } from './contact-state.js';
import { decide } from './decide.js';
import { CAP_SCHEDULE_PRESETS, DEFAULT_POLICY, type Policy } from './policy.js';
import { reduceContact } from './reduce-contact.js';
import { consentingContact, intent, replay, T0 } from './test-support.js';
import { DAY, HOUR } from './time.js';

const SPAN = 12 * DAY;
const at = fc.integer({ min: T0, max: T0 + SPAN });
const category = fc.constantFrom<Category>(...CATEGORIES);
const anyCode = fc.constantFrom(131049, 130472, 131050, 131026, 131047, 131056, 130429, 132015, 131000, 1026, 999_999);

let seq = 0;
const id = () => `e${++seq}`;

const marketingOnlyEvent: fc.Arbitrary<ContactEvent> = fc.oneof(
  fc.record({ at, code: fc.constantFrom(131049, 130472, 131050) }).map(({ at, code }) => ({
    type: 'status' as const,
    id: id(),
    at,
    messageId: id(),
    status: 'failed' as const,
    category: 'marketing' as const,
    errorCode: code,
  })),
  fc
    .record({ at, value: fc.constantFrom('stop' as const, 'resume' as const) })
    .map(({ at, value }) => ({ type: 'preference' as const, id: id(), at, value })),
  at.map((at) => ({
    type: 'send_accepted' as const,
    id: id(),
    at,
    messageId: id(),
    category: 'marketing' as const,
    path: 'cloud' as const,
  })),
  fc.record({ at, status: fc.constantFrom('granted' as const, 'revoked' as const) }).map(({ at, status }) => ({
    type: 'consent' as const,
    id: id(),
    at,
    category: 'marketing' as const,
    status,
    source: 'test',
    evidence: null,
  })),
);

const anyEvent: fc.Arbitrary<ContactEvent> = fc.oneof(
  marketingOnlyEvent,
  fc.record({ at, code: anyCode, category: fc.option(category, { nil: null }) }).map(({ at, code, category }) => ({
    type: 'status' as const,
    id: id(),
    at,
    messageId: id(),
    status: 'failed' as const,
    category,
    errorCode: code,
  })),
  fc
    .record({
      at,
      status: fc.constantFrom('delivered' as const, 'read' as const, 'sent' as const),
      category: fc.option(category, { nil: null }),
    })
    .map(({ at, status, category }) => ({ type: 'status' as const, id: id(), at, messageId: id(), status, category, errorCode: null })),
  fc
    .record({
      at,
      text: fc.constantFrom('hi', 'STOP', 'Stop promotions', 'start', 'order 42?'),
      kind: fc.constantFrom('text' as const, 'button' as const),
      freeEntry: fc.boolean(),
    })
    .map(({ at, text, kind, freeEntry }) => ({ type: 'inbound' as const, id: id(), at, kind, text, payload: null, freeEntry })),
  fc.record({ at, category, status: fc.constantFrom('granted' as const, 'revoked' as const) }).map(({ at, category, status }) => ({
    type: 'consent' as const,
    id: id(),
    at,
    category,
    status,
    source: 'test',
    evidence: null,
  })),
  fc
    .record({ at, code: anyCode, category })
    .map(({ at, code, category }) => ({ type: 'send_error' as const, id: id(), at, messageId: null, category, errorCode: code })),
);

const capPolicy = fc.constantFrom<Policy>(
  DEFAULT_POLICY,
  { ...DEFAULT_POLICY, capRetry: CAP_SCHEDULE_PRESETS['24h'] },
  { ...DEFAULT_POLICY, capRetry: CAP_SCHEDULE_PRESETS['48h'], marketingPath: 'marketing_messages_after_cap', frequencyCap: null },
);
const events = fc.array(anyEvent, { maxLength: 30 });
/** Decisions are taken after every event has happened. */
const afterAll = (es: readonly ContactEvent[]) => fc.integer({ min: 0, max: 5 * DAY }).map((d) => Math.max(T0, ...es.map((e) => e.at)) + d);
/** A time close after one of the events (where the rules bite), or after all of them. */
const nearAnEvent = (es: readonly ContactEvent[]) =>
  es.length === 0
    ? afterAll(es)
    : fc.oneof(
        afterAll(es),
        fc.tuple(fc.constantFrom(...es), fc.integer({ min: 0, max: 30 * HOUR })).map(([e, d]) => e.at + d),
      );
/** What is known at `now`: the events that have happened by then, in the given arrival order. */
const known = (es: readonly ContactEvent[], now: number) => es.filter((e) => e.at <= now);

function windowOpenAt(es: readonly ContactEvent[], now: number): boolean {
  return es.some((e) => e.type === 'inbound' && e.at <= now && now < e.at + (e.freeEntry ? 72 : 24) * HOUR);
}

describe('decide, over random histories', () => {
  it('never sends marketing within 24 h of a 131049 unless a window is open', () => {
    let sends = 0;
    fc.assert(
      fc.property(
        events.chain((es) => fc.tuple(fc.constant(es), nearAnEvent(es), capPolicy, fc.shuffledSubarray(es, { minLength: es.length }))),
        ([es, now, policy, shuffled]) => {
          const d = decide(replay(known(shuffled, now), policy, consentingContact(policy)), intent('marketing'), now, policy);
          sends += d.kind === 'send' ? 1 : 0;
          if (d.kind !== 'send') return;
          const recentCap = es.some((e) => e.type === 'status' && e.errorCode === 131049 && e.at <= now && now - e.at < 24 * HOUR);
          expect(recentCap && !windowOpenAt(es, now)).toBe(false);
        },
      ),
      { numRuns: 3000 },
    );
    expect(sends).toBeGreaterThan(300); // the property is only meaningful if marketing does go out
  });

  it('never sends to a stopped or unreachable contact in the affected categories', () => {
    fc.assert(
      fc.property(
        events.chain((all) => fc.tuple(fc.constant(all), nearAnEvent(all))),
        ([all, now]) => {
          const es = known(all, now);
          const s = replay(es, DEFAULT_POLICY, consentingContact());
          const latest = (pred: (e: ContactEvent) => boolean) => Math.max(-Infinity, ...es.filter(pred).map((e) => e.at));
          const stopAt = latest(
            (e) =>
              (e.type === 'preference' && e.value === 'stop') ||
              (e.type === 'status' && e.errorCode === 131050) ||
              (e.type === 'inbound' && /^(stop|stop promotions)$/i.test(e.text ?? '')),
          );
          const resumeAt = latest(
            (e) => (e.type === 'preference' && e.value === 'resume') || (e.type === 'inbound' && e.kind === 'text' && e.text === 'start'),
          );
          if (stopAt > resumeAt) expect(decide(s, intent('marketing'), now, DEFAULT_POLICY).kind).not.toBe('send');

          const goneAt = latest((e) => (e.type === 'status' || e.type === 'send_error') && e.errorCode === 131026);
          const reachedAt = latest(
            (e) => e.type === 'inbound' || (e.type === 'status' && (e.status === 'delivered' || e.status === 'read')),
          );
          if (goneAt > reachedAt && now < goneAt + DEFAULT_POLICY.unreachableQuietMs) {
            for (const c of CATEGORIES) expect(decide(s, intent(c), now, DEFAULT_POLICY).kind).toBe('skip');
          }
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('decides utility, authentication and service the same whatever the marketing history', () => {
    fc.assert(
      fc.property(
        fc.array(
          anyEvent.filter((e) => !isMarketingOnly(e)),
          { maxLength: 15 },
        ),
        fc.array(marketingOnlyEvent, { maxLength: 15 }),
        fc.integer({ min: T0, max: T0 + SPAN + 5 * DAY }),
        (base, marketing, now) => {
          const without = replay(base);
          const withMarketing = replay(interleave(base, marketing));
          for (const c of ['utility', 'authentication', 'service'] as const) {
            expect(decide(withMarketing, intent(c), now, DEFAULT_POLICY)).toEqual(decide(without, intent(c), now, DEFAULT_POLICY));
          }
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('ignores duplicate events', () => {
    fc.assert(
      fc.property(events, fc.array(fc.nat()), (es, picks) => {
        const dupes = picks.map((p) => es[p % Math.max(1, es.length)]).filter((e): e is ContactEvent => e !== undefined);
        const once = replay(es);
        const twice = [...es, ...dupes].reduce((s, e) => reduceContact(s, e, DEFAULT_POLICY), EMPTY_CONTACT_STATE);
        expect({ ...twice, seen: [] }).toEqual({ ...once, seen: [] });
      }),
      { numRuns: 500 },
    );
  });

  it('reaches the same decisions whatever order order-free events arrive in', () => {
    const orderFree = anyEvent.filter(
      (e) =>
        !(e.type === 'status' && e.status === 'failed' && (e.errorCode === 131049 || e.errorCode === 1026)) &&
        !(e.type === 'send_error' && e.errorCode === 131049),
    );
    fc.assert(
      fc.property(
        fc
          .array(orderFree, { maxLength: 25 })
          .chain((es) => fc.tuple(fc.constant(es), fc.shuffledSubarray(es, { minLength: es.length }), afterAll(es))),
        ([es, shuffled, now]) => {
          const a = replay(es);
          const b = replay(shuffled);
          for (const c of CATEGORIES) {
            const da = decide(a, intent(c), now, DEFAULT_POLICY);
            const db = decide(b, intent(c), now, DEFAULT_POLICY);
            expect({ kind: db.kind, reason: db.reason, until: 'until' in db ? db.until : null }).toEqual({
              kind: da.kind,
              reason: da.reason,
              until: 'until' in da ? da.until : null,
            });
          }
        },
      ),
      { numRuns: 1000 },
    );
  });
});

function isMarketingOnly(e: ContactEvent): boolean {
  if (e.type === 'preference' || (e.type === 'send_accepted' && e.category === 'marketing')) return true;
  if (e.type === 'consent') return e.category === 'marketing';
  if ((e.type === 'status' || e.type === 'send_error') && e.errorCode !== null) return [131049, 130472, 131050].includes(e.errorCode);
  if (e.type === 'inbound') return /stop|start/i.test(e.text ?? '');
  return false;
}

function interleave<T>(a: readonly T[], b: readonly T[]): T[] {
  const out: T[] = [];
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if (i < b.length) out.push(b[i] as T);
    if (i < a.length) out.push(a[i] as T);
  }
  return out;
}
