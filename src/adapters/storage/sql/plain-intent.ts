import { PLAIN_VALUE_CHARACTERS, type PlainSlot } from '../../../core/template-freeze.js';
import type { SegmentOutboxPlan } from '../../../ports/store.js';
import type { Capabilities } from '../capabilities.js';
import type { SqlParam } from '../sql-executor.js';
import { binder, toJson } from './values.js';

/** Attribute names a plain JSON path (`$.name`) reads on SQLite; any other name leaves the campaign to `intentTextFor`. */
const PATH_KEY = /^[A-Za-z_][A-Za-z0-9_]*$/;

type AttributeSlot = Extract<PlainSlot, { kind: 'attribute' }>;

/**
 * Each builds its SQL, binding its values into `params` as it goes. The attributes are read once
 * per contact, as columns of a subquery over `contacts c` (`columns`), that `plain` and `intent`
 * then use by name from `x`: each read parses the contact's JSON again.
 */
export interface PlainIntentSql {
  /** `, <read> AS v0, …`: each attribute the slots read, for the select list over `contacts c`. */
  columns(params: SqlParam[]): string;
  /** Ends the subquery, so the database computes its columns once instead of inlining them. */
  fence: string;
  /** True for the contacts whose every attribute slot holds a plain value. */
  plain(params: SqlParam[]): string;
  /** The row's intent, written by the database, for those contacts. */
  intent(params: SqlParam[]): string;
}

/**
 * A plan's plain intent as SQL: `slotValueFreezer`'s values for plain attribute values (plainSlots
 * in src/core/template-freeze.ts), which test/plain-intent-property.test.ts holds to the
 * JavaScript rendering. Null when the plan has none or names an attribute no plain path reads.
 */
export function plainIntentSql(caps: Capabilities, plan: SegmentOutboxPlan): PlainIntentSql | null {
  const p = plan.plainIntent;
  if (p === undefined || p.slots.some((s) => s.kind === 'attribute' && !PATH_KEY.test(s.attribute))) return null;
  const sqlite = caps.dialect === 'sqlite';
  const object = sqlite ? 'json_object' : 'jsonb_build_object';
  const texter = (bind: (v: SqlParam) => string) => (v: string) => (sqlite ? bind(v) : `${bind(v)}::text`);
  // Each attribute once, tested at the tightest limit of the slots reading it.
  const tightest = new Map<string, AttributeSlot>();
  for (const slot of p.slots) {
    if (slot.kind !== 'attribute') continue;
    const seen = tightest.get(slot.attribute);
    if (seen === undefined || (slot.maxChars ?? Infinity) < (seen.maxChars ?? Infinity)) tightest.set(slot.attribute, slot);
  }
  const attributes = [...tightest.keys()];
  // x.v<i>: the attribute's value; x.t<i>: its JSON type (PostgreSQL only).
  const column = (attribute: string, part: 'v' | 't' = 'v'): string => `x.${part}${attributes.indexOf(attribute)}`;
  const value = (bind: (v: SqlParam) => string, slot: PlainSlot): string => {
    if (slot.kind === 'attribute') return column(slot.attribute);
    if (typeof slot.value === 'string') return texter(bind)(slot.value);
    return sqlite ? `json(${bind(toJson(slot.value))})` : `${bind(toJson(slot.value))}::jsonb`;
  };
  // SQLite's json_extract gives text only for a JSON string (numbers and booleans come back as
  // numbers, objects as JSON text, which the character test refuses); PostgreSQL's ->> gives text
  // for any scalar, so its JSON type is read beside it (t0, …).
  const condition = (bind: (v: SqlParam) => string, slot: AttributeSlot): string => {
    const v = column(slot.attribute);
    const length = slot.maxChars === null ? `length(${v}) >= 1` : `length(${v}) BETWEEN 1 AND ${bind(slot.maxChars)}`;
    return sqlite
      ? `(typeof(${v}) = 'text' AND ${v} NOT GLOB '*[^${PLAIN_VALUE_CHARACTERS}]*' AND ${length}) IS TRUE`
      : `(${column(slot.attribute, 't')} = 'string' AND ${v} ~ '^[${PLAIN_VALUE_CHARACTERS}]+$' AND ${length}) IS TRUE`;
  };
  return {
    columns(params) {
      const bind = binder(params);
      return attributes
        .map((a, i) =>
          sqlite
            ? `, json_extract(c.attributes, ${bind(`$.${a}`)}) AS v${i}`
            : `, (c.attributes ->> ${texter(bind)(a)}) AS v${i}, jsonb_typeof(c.attributes -> ${texter(bind)(a)}) AS t${i}`,
        )
        .join('');
    },
    fence: sqlite ? ' LIMIT -1 OFFSET 0' : ' OFFSET 0',
    plain(params) {
      const bind = binder(params);
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
