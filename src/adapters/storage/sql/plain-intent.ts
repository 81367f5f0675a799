import { PLAIN_VALUE_CHARACTERS, type PlainSlot } from '../../../core/template-parameters.js';
import type { SegmentOutboxPlan } from '../../../ports/store.js';
import type { Capabilities } from '../capabilities.js';
import type { SqlParam } from '../sql-executor.js';
import { binder, toJson } from './values.js';

/** Attribute names a plain JSON path (`$.name`) reads on SQLite; any other name leaves the campaign to `intentTextFor`. */
const PATH_KEY = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Each builds its SQL over `contacts c`, binding its values into `params` as it goes. */
export interface PlainIntentSql {
  /** True for the contacts whose every attribute slot holds a plain value. */
  plain(params: SqlParam[]): string;
  /** The row's intent, written by the database, for those contacts. */
  intent(params: SqlParam[]): string;
}

/**
 * A plan's plain intent as SQL: `slotValueFreezer`'s values for plain attribute values (plainSlots
 * in src/core/template-parameters.ts), which test/plain-intent-property.test.ts holds to the
 * JavaScript rendering. Null when the plan has none or names an attribute no plain path reads.
 */
export function plainIntentSql(caps: Capabilities, plan: SegmentOutboxPlan): PlainIntentSql | null {
  const p = plan.plainIntent;
  if (p === undefined || p.slots.some((s) => s.kind === 'attribute' && !PATH_KEY.test(s.attribute))) return null;
  const sqlite = caps.dialect === 'sqlite';
  const object = sqlite ? 'json_object' : 'jsonb_build_object';
  const texter = (bind: (v: SqlParam) => string) => (v: string) => (sqlite ? bind(v) : `${bind(v)}::text`);
  const read = (bind: (v: SqlParam) => string, attribute: string): string =>
    sqlite ? `json_extract(c.attributes, ${bind(`$.${attribute}`)})` : `(c.attributes ->> ${texter(bind)(attribute)})`;
  const value = (bind: (v: SqlParam) => string, slot: PlainSlot): string => {
    if (slot.kind === 'attribute') return read(bind, slot.attribute);
    if (typeof slot.value === 'string') return texter(bind)(slot.value);
    return sqlite ? `json(${bind(toJson(slot.value))})` : `${bind(toJson(slot.value))}::jsonb`;
  };
  const condition = (bind: (v: SqlParam) => string, slot: Extract<PlainSlot, { kind: 'attribute' }>): string => {
    const v = read(bind, slot.attribute);
    const length = slot.maxChars === null ? `length(${v}) >= 1` : `length(${v}) BETWEEN 1 AND ${bind(slot.maxChars)}`;
    return sqlite
      ? `(json_type(c.attributes, ${bind(`$.${slot.attribute}`)}) = 'text' AND ${v} NOT GLOB '*[^${PLAIN_VALUE_CHARACTERS}]*' AND ${length}) IS TRUE`
      : `(jsonb_typeof(c.attributes -> ${texter(bind)(slot.attribute)}) = 'string' AND ${v} ~ '^[${PLAIN_VALUE_CHARACTERS}]+$' AND ${length}) IS TRUE`;
  };
  return {
    plain(params) {
      const bind = binder(params);
      // One test per attribute, at the tightest limit of the slots reading it: each test reads the JSON again.
      const tightest = new Map<string, Extract<PlainSlot, { kind: 'attribute' }>>();
      for (const slot of p.slots) {
        if (slot.kind !== 'attribute') continue;
        const seen = tightest.get(slot.attribute);
        const limit = (s: typeof slot | undefined) => s?.maxChars ?? Infinity;
        if (seen === undefined || limit(slot) < limit(seen)) tightest.set(slot.attribute, slot);
      }
      const all = [...tightest.values()].map((slot) => condition(bind, slot));
      return all.length === 0 ? '(1 = 1)' : `(${all.join(' AND ')})`;
    },
    intent(params) {
      const bind = binder(params);
      const text = texter(bind);
      const pairs = p.slots.map((slot) => `${text(slot.key)}, ${value(bind, slot)}`);
      return `${object}('phoneNumberId', ${text(p.phoneNumberId)}, 'template', ${object}('name', ${text(p.name)}, 'language', ${text(p.language)}, 'values', ${object}(${pairs.join(', ')})))`;
    },
  };
}
