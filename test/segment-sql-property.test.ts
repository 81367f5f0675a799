import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CATEGORIES, type Category } from '../src/core/category.js';
import { EMPTY_CONTACT_STATE, type Cause, type ContactState } from '../src/core/contact-state.js';
import { matchesSegment, reachability, type Reachability, type SegmentDefinition } from '../src/core/segment.js';
import { DAY } from '../src/core/time.js';
import type { JsonObject, JsonValue, SegmentOutboxPlan, Store } from '../src/ports/store.js';
import { BACKENDS } from './store-backends.js';
import { seedCampaign } from './store-seed.js';

// The store matches segments in SQL (insertSegmentOutbox, countSegment); matchesSegment is the rule.
// For random segments over random contacts and states, both must select the same contacts, on both
// backends. Values sit on the edges the rules have: times a millisecond either side of `now` and of
// the engagement window, letters whose lower case JavaScript maps beyond ASCII, numbers that only
// compare equal when parsed exactly, attributes of every JSON type.

const T0 = Date.UTC(2026, 5, 1, 12);
const STATES: readonly Reachability[] = ['cooling_off', 'held', 'stopped', 'unreachable'];

// Pairs that differ only in case, letters lower-cased by full Unicode mapping (İ, final Σ, K for the
// Kelvin sign), and characters that would break a JSON path or a quoted string.
const LETTERS = ['a', 'A', 'ã', 'Ã', 'σ', 'Σ', 'ς', 'İ', 'i', 'ß', 'ẞ', 'k', '\u212A', 'ǅ', 'Ω', '"', "'", '\\'];
const text = fc.string({ unit: fc.constantFrom(...LETTERS), minLength: 1, maxLength: 4 });
const TAGS = ['vip', 'VIP', 'gold', 'ß', 'ẞ', 'a"b', '1', 'true'];
const KEYS = ['city', 'a.b', 'say "hi"', 'constructor'];
// Integers past 2^53 (JSON writes some shorter than their exact value: -74863013342997264 as
// -74863013342997260, which SQLite would read as that other integer), and doubles at the ends of the range.
const NUMBERS = [
  0,
  -0,
  1,
  2,
  -7,
  0.1,
  0.30000000000000004,
  2.5e-8,
  1e21,
  12345678901234567168,
  2 ** 53 + 2,
  -74863013342997264,
  1.7976931348623157e308,
  5e-324,
];

// Days on the engagement windows the segments draw most, and around now, a millisecond either side.
const instant = fc
  .tuple(fc.oneof(fc.constantFrom(-30, -7, -1, 0, 1), fc.integer({ min: -45, max: 5 })), fc.constantFrom(-1, 0, 1))
  .map(([days, ms]) => T0 + days * DAY + ms);
/** A time or null; `sparse`, mostly null, so that one time alone decides more often. */
const time = (sparse: boolean): fc.Arbitrary<number | null> =>
  fc.oneof({ weight: sparse ? 3 : 1, arbitrary: fc.constant(null) }, { weight: 2, arbitrary: instant });
const cause: fc.Arbitrary<Cause | null> = fc.option(
  instant.map((at) => ({ eventId: `e${String(at)}`, type: 'status' as const, at, detail: null })),
  { freq: 2 },
);
const perCategory = <T>(value: fc.Arbitrary<T>): fc.Arbitrary<Record<Category, T>> =>
  fc
    .tuple(...CATEGORIES.map(() => value))
    .map((values) => Object.fromEntries(CATEGORIES.map((c, i) => [c, values[i]])) as Record<Category, T>);

const state = (sparse: boolean): fc.Arbitrary<ContactState> =>
  fc
    .record({
      consent: perCategory(fc.constantFrom('granted' as const, 'revoked' as const, 'unknown' as const)),
      engagement: perCategory(fc.record({ lastDeliveredAt: time(sparse), lastReadAt: time(sparse) })),
      lastInboundAt: time(sparse),
      lastReachedAt: time(sparse),
      coolOffUntil: time(sparse),
      experiment: cause,
      stopped: cause,
      resumed: cause,
      unreachable: cause,
    })
    .map((s) => ({
      ...EMPTY_CONTACT_STATE,
      consent: Object.fromEntries(
        CATEGORIES.map((c) => [c, { status: s.consent[c], at: T0, source: 'test', evidence: null }]),
      ) as ContactState['consent'],
      engagement: s.engagement,
      lastInboundAt: s.lastInboundAt,
      lastReachedAt: s.lastReachedAt,
      marketing: {
        ...EMPTY_CONTACT_STATE.marketing,
        coolOffUntil: s.coolOffUntil,
        experiment: s.experiment,
        stopped: s.stopped,
        resumed: s.resumed,
      },
      unreachable: s.unreachable,
    }));

interface Person {
  tags: string[];
  attributes: JsonObject;
  state: ContactState | null;
}

const caseMix = (w: string): fc.Arbitrary<string> => {
  const chars = [...w];
  return fc
    .array(fc.boolean(), { minLength: chars.length, maxLength: chars.length })
    .map((upper) => chars.map((c, i) => (upper[i] ? c.toUpperCase() : c.toLowerCase())).join(''));
};

/**
 * Contacts and a segment that draw attribute values from the same few (strings in any mix of cases,
 * numbers, numbers written as strings, booleans), so that attribute conditions meet; segments of up
 * to three conditions, so that they select some contacts and not others. `attributes` draws only
 * attribute conditions, where most of the edges of comparing values are; `times` only conditions on
 * times (engagement, reachability now) over sparse states, where each time decides more often.
 */
const world = (focus: 'any' | 'attributes' | 'times') =>
  fc
    .uniqueArray(
      fc.oneof(
        { weight: 3, arbitrary: text },
        fc.constantFrom(...NUMBERS),
        fc.double({ noNaN: true, noDefaultInfinity: true }),
        fc.boolean(),
      ),
      { minLength: 1, maxLength: 3 },
    )
    .chain((bases) => {
      // Each value with its look-alikes of other JSON types: 1 and "1"; true, "true" and 1.
      // Words come in any mix of cases; the look-alikes exactly as written.
      const pool = bases.flatMap((v): fc.Arbitrary<string | number | boolean>[] =>
        typeof v === 'string'
          ? [caseMix(v)]
          : (typeof v === 'number' ? [v, String(v)] : [v, String(v), Number(v)]).map((x) => fc.constant(x)),
      );
      const value = fc.oneof(...pool);
      const held: fc.Arbitrary<JsonValue> = fc.oneof(
        { weight: 8, arbitrary: value },
        fc.constant(null),
        fc.constant(['a'] as JsonValue),
        fc.constant({ a: 1 } as JsonValue),
      );
      const tags = fc.uniqueArray(fc.constantFrom(...TAGS), { maxLength: 3 });
      const person: fc.Arbitrary<Person> = fc.record({
        tags,
        attributes: fc.dictionary(fc.constantFrom(...KEYS), held, { maxKeys: focus === 'attributes' ? 4 : 3 }),
        state: fc.option(state(focus === 'times'), { freq: 5 }),
      });
      const attributes = fc.record({ attributes: fc.dictionary(fc.constantFrom(...KEYS), value, { minKeys: 1, maxKeys: 2 }) });
      const engaged = fc.record({ engagedWithinDays: fc.oneof(fc.constantFrom(1, 7, 30), fc.integer({ min: 1, max: 3650 })) });
      const exclude = fc.record({ exclude: fc.uniqueArray(fc.constantFrom(...STATES), { maxLength: 3 }) });
      const condition: fc.Arbitrary<SegmentDefinition> =
        focus === 'attributes'
          ? attributes
          : focus === 'times'
            ? fc.oneof(engaged, exclude)
            : fc.oneof(
                fc.record({ tagsAll: tags }),
                fc.record({ tagsAny: tags }),
                fc.record({ tagsNone: tags }),
                { weight: 2, arbitrary: attributes },
                fc.record({ consent: fc.uniqueArray(fc.constantFrom(...CATEGORIES), { maxLength: 2 }) }),
                engaged,
                exclude,
              );
      return fc.record({
        people: fc.array(person, { minLength: 1, maxLength: 10 }),
        segment: fc
          .array(condition, { maxLength: focus === 'any' ? 3 : focus === 'times' ? 2 : 1 })
          .map((parts): SegmentDefinition => Object.assign({}, ...parts)),
        now: fc.constantFrom(T0, T0 - 1, T0 + 1, T0 + DAY),
        page: fc.integer({ min: 1, max: 9 }),
      });
    });

let phone = 0;

async function addPeople(store: Store, people: readonly Person[]): Promise<number[]> {
  const { ids } = await store.upsertContacts(
    people.map((p) => ({ phoneE164: `+4479${String(phone++).padStart(8, '0')}`, tags: p.tags, attributes: p.attributes })),
    T0,
  );
  for (const [i, p] of people.entries()) {
    if (p.state !== null) await store.saveContactState(ids[i] ?? -1, p.state, 0, T0);
  }
  return ids;
}

const CASES = [
  { what: 'random segments over random contacts and states', focus: 'any' as const },
  { what: 'random attribute conditions (case, Unicode, JSON types, exact numbers)', focus: 'attributes' as const },
  { what: 'random conditions on times (engagement windows, reachability now)', focus: 'times' as const },
];

describe.each(BACKENDS)('segments in SQL select what matchesSegment selects ($name)', (backend) => {
  it('for every edge number and its look-alikes, each against all of them', async () => {
    const store = await backend.open();
    const values: (string | number | boolean)[] = [...NUMBERS.flatMap((n) => [n, String(n)]), true, false, 'true'];
    const ids = await addPeople(
      store,
      values.map((v) => ({ tags: [], attributes: { n: v }, state: null })),
    );
    const stored = await store.getContactsWithState(ids);
    for (const want of values) {
      const segment = { attributes: { n: want } };
      const expected = stored.filter((s) => matchesSegment(s.contact, EMPTY_CONTACT_STATE, segment, T0)).length;
      expect(expected).toBeGreaterThan(0);
      const got = await store.countSegment(segment, T0, Math.min(...ids) - 1, values.length);
      expect({ want, matched: got.matched }).toEqual({ want, matched: expected });
    }
  });

  it.each(CASES)('for $what', { timeout: 300_000 }, async ({ focus }) => {
    const store = await backend.open();
    const seed = await seedCampaign(store, T0, 0);
    await fc.assert(
      fc.asyncProperty(world(focus), async ({ people, segment, now, page }) => {
        const ids = await addPeople(store, people);
        // Contacts come and go by id; this run's are the only ones after `before`.
        const before = Math.min(...ids) - 1;
        const stored = await store.getContactsWithState(ids);
        const selected = stored.filter((s) => matchesSegment(s.contact, s.state?.state ?? EMPTY_CONTACT_STATE, segment, now));
        const expected = { scanned: people.length, matched: selected.length };

        const campaignId = await store.createCampaign(
          {
            name: `p${String(before)}`,
            templateId: seed.templateId,
            senderId: seed.senderId,
            segment: {},
            scheduledAt: null,
            policyPreset: 'meta',
            status: 'draft',
          },
          T0,
        );
        const plan: SegmentOutboxPlan = {
          campaignId,
          senderId: seed.senderId,
          category: 'marketing',
          intent: { t: 1 },
          nextAttemptAt: now,
          segment,
        };
        // One contact a page: each page says whether its contact was selected.
        const chosen: number[] = [];
        for (const s of stored) {
          const one = await store.insertSegmentOutbox(plan, s.contact.id - 1, 1, now);
          expect(one).toMatchObject({ lastContactId: s.contact.id, scanned: 1 });
          expect(one.inserted).toBe(one.matched);
          if (one.inserted === 1) chosen.push(s.contact.id);
        }
        expect(chosen).toEqual(selected.map((s) => s.contact.id));

        // Again in pages of `page`: the same matches, nothing new.
        const again = { scanned: 0, matched: 0, inserted: 0 };
        for (let after = before; ;) {
          const p = await store.insertSegmentOutbox(plan, after, page, now);
          if (p.lastContactId === null) break;
          expect(p.lastContactId).toBeGreaterThan(after);
          after = p.lastContactId;
          again.scanned += p.scanned;
          again.matched += p.matched;
          again.inserted += p.inserted;
        }
        expect(again).toEqual({ ...expected, inserted: 0 });

        // The preview counts the same contacts, and their states now.
        const counts = { scanned: 0, matched: 0, matchedNow: { cooling_off: 0, held: 0, stopped: 0, unreachable: 0 } };
        for (let after = before; ;) {
          const p = await store.countSegment(segment, now, after, page);
          if (p.lastContactId === null) break;
          expect(p.lastContactId).toBeGreaterThan(after);
          after = p.lastContactId;
          counts.scanned += p.scanned;
          counts.matched += p.matched;
          for (const r of STATES) counts.matchedNow[r] += p.matchedNow[r];
        }
        const matchedNow = Object.fromEntries(
          STATES.map((r) => [r, selected.filter((s) => reachability(s.state?.state ?? EMPTY_CONTACT_STATE, now).includes(r)).length]),
        );
        expect(counts).toEqual({ ...expected, matchedNow });
      }),
      { numRuns: 200 },
    );
  });
});
