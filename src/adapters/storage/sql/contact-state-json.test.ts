import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CATEGORIES } from '../../../core/category.js';
import type { Cause, ContactState } from '../../../core/contact-state.js';
import { EMPTY_CONTACT_STATE } from '../../../core/contact-state.js';
import { consentingContact, ev, replay, T0 } from '../../../core/test-support.js';
import { contactStateFromStored, storedContactState } from './contact-state-json.js';

const time = fc.option(fc.integer({ min: 0, max: 2 ** 45 }), { nil: null });
const text = fc.option(fc.string({ maxLength: 12 }), { nil: null });
const cause: fc.Arbitrary<Cause | null> = fc.option(
  fc.record({
    eventId: fc.string({ maxLength: 12 }),
    type: fc.constantFrom<Cause['type']>('status', 'send_error', 'inbound', 'consent', 'preference'),
    at: fc.integer({ min: 0, max: 2 ** 45 }),
    detail: text,
  }),
  { nil: null },
);
const perCategory = <T>(value: fc.Arbitrary<T>) =>
  fc
    .tuple(...CATEGORIES.map(() => value))
    .map((vs) => Object.fromEntries(CATEGORIES.map((c, i) => [c, vs[i]])) as Record<(typeof CATEGORIES)[number], T>);

const state: fc.Arbitrary<ContactState> = fc.record({
  consent: perCategory(
    fc.record({
      status: fc.constantFrom('unknown' as const, 'granted' as const, 'revoked' as const),
      at: time,
      source: text,
      evidence: text,
    }),
  ),
  windowOpenUntil: time,
  freeEntryUntil: time,
  lastInboundAt: time,
  lastReachedAt: time,
  marketing: fc.record({
    coolOffUntil: time,
    consecutiveCaps: fc.nat({ max: 9 }),
    lastCap: cause,
    experiment: cause,
    stopped: cause,
    resumed: cause,
    recentSends: fc.array(fc.record({ messageId: fc.string({ maxLength: 12 }), at: fc.nat() }), { maxLength: 3 }),
    marketingApiTriedAfterCap: fc.boolean(),
  }),
  unreachable: cause,
  engagement: perCategory(fc.record({ lastDeliveredAt: time, lastReadAt: time })),
  seen: fc.array(fc.string({ maxLength: 12 }), { maxLength: 4 }),
});

/** What a row holds after a trip through the database's JSON column. */
const stored = (s: ContactState): unknown => JSON.parse(JSON.stringify(storedContactState(s)));

describe('contact state as stored', () => {
  it('reads back every state exactly, whatever it holds', () => {
    fc.assert(
      fc.property(state, (s) => {
        expect(contactStateFromStored(stored(s))).toEqual(s);
      }),
    );
  });

  it('reads a row written whole, nulls and all, as the same state', () => {
    fc.assert(
      fc.property(state, (s) => {
        expect(contactStateFromStored(JSON.parse(JSON.stringify(s)))).toEqual(s);
      }),
    );
  });

  it('writes no null, no false flag and no empty list: a missing key is the default', () => {
    const hasDefault = (v: unknown): boolean =>
      v === null || v === false || (Array.isArray(v) && v.length === 0) || (typeof v === 'object' && Object.values(v).some(hasDefault));
    fc.assert(
      fc.property(state, (s) => {
        expect(hasDefault(storedContactState(s))).toBe(false);
      }),
    );
    expect(storedContactState(EMPTY_CONTACT_STATE)).toEqual({ marketing: { consecutiveCaps: 0 } });
  });

  it('keeps a contact who opted in and was reached to a fraction of the whole object', () => {
    const s = replay([ev.delivered(T0, 'marketing'), ev.read(T0 + 1, 'marketing')], undefined, consentingContact());
    const whole = JSON.stringify(s).length;
    const compact = JSON.stringify(storedContactState(s)).length;
    expect(compact).toBeLessThan(whole * 0.6);
    expect(contactStateFromStored(stored(s))).toEqual(s);
  });
});
