import { CATEGORIES } from '../../../core/category.js';
import type { Reachability, SegmentDefinition } from '../../../core/segment.js';
import { DAY, type Millis } from '../../../core/time.js';
import type { Capabilities } from '../capabilities.js';
import type { SqlParam, SqlRunner } from '../sql-executor.js';
import { binder, int, intOrNull } from './values.js';

/** The next `$2` contacts after `$1`, by id: where the page ends, and how many it holds. */
const PAGE_BOUNDS = 'SELECT max(id) AS last_id, count(*) AS scanned FROM (SELECT id FROM contacts WHERE id > $1 ORDER BY id LIMIT $2) page';

export async function contactPage(db: SqlRunner, afterId: number, limit: number): Promise<{ lastId: number | null; scanned: number }> {
  const [row] = await db.query(PAGE_BOUNDS, [afterId, limit]);
  const lastId = intOrNull(row?.['last_id']);
  return { lastId, scanned: lastId === null ? 0 : int(row?.['scanned']) };
}

/**
 * The contacts of a page, `$1 < id <= $2`, each with its state (or none) as `c` and `s`. The range
 * is repeated on the states: PostgreSQL does not carry it across the join by itself and would read
 * the states from the first one for every page. In ON, not WHERE, so contacts without a state stay in.
 */
export const PAGE_CONTACTS = `FROM contacts c LEFT JOIN contact_states s ON s.contact_id = c.id AND s.contact_id > $1 AND s.contact_id <= $2
WHERE c.id > $1 AND c.id <= $2`;

/**
 * A segment as SQL over `contacts c LEFT JOIN contact_states s ON s.contact_id = c.id`, selecting
 * exactly the contacts `matchesSegment` (src/core/segment.ts) selects, with the contact's stored
 * state or, without one, the empty state. test/segment-sql-property.test.ts holds the two together.
 *
 * Every condition is NULL-free (`IS TRUE`), so a contact without a state, or a JSON null, reads as
 * JavaScript reads it and `NOT` stays a plain negation. States are stored whole (saveContactState
 * writes a typed ContactState), so every state path read here exists. Values go in as parameters appended to
 * `params` as the SQL asks for them; the SQL text holds only fixed JSON paths and placeholders.
 */
export interface SegmentSql {
  /** True for the contacts the segment selects at `now`. */
  match(segment: SegmentDefinition, now: Millis): string;
  /** True for the contacts in this reachability state at `now` (`reachability` in the core). */
  inState(state: Reachability, now: Millis): string;
}

/** What differs between the dialects: reading the state and the contact's JSON columns. */
interface Dialect {
  /** A number in the state at a fixed path; NULL without a state or when the value is null. */
  stateNumber(path: readonly string[]): string;
  /** The state holds a value other than null at a fixed path. */
  stateSet(path: readonly string[]): string;
  consentGranted(category: string): string;
  hasTag(tag: string): string;
  attributeIs(key: string, want: string | number | boolean): string;
}

const PATH_KEY = /^[A-Za-z_]\w*$/;

function checkedPath(path: readonly string[]): readonly string[] {
  if (path.length === 0 || path.some((key) => !PATH_KEY.test(key))) throw new Error(`segment SQL: bad state path ${path.join('.')}`);
  return path;
}

function sqliteDialect(bind: (value: SqlParam) => string): Dialect {
  const at = (path: readonly string[]): string => `'$.${checkedPath(path).join('.')}'`;
  return {
    stateNumber: (path) => `json_extract(s.state, ${at(path)})`,
    stateSet: (path) => `json_type(s.state, ${at(path)}) <> 'null'`,
    consentGranted: (category) => `json_extract(s.state, ${bind(`$.consent.${category}.status`)}) = 'granted'`,
    hasTag: (tag) => `EXISTS (SELECT 1 FROM json_each(c.tags) WHERE type = 'text' AND value = ${bind(tag)})`,
    // json_each rather than a path: an attribute name may hold any character, quotes and dots included.
    attributeIs: (key, want) => {
      const typed =
        typeof want === 'string'
          ? `type = 'text' AND unicode_lower(value) = ${bind(want.toLowerCase())}`
          : // As a double, as JSON.parse reads it: JSON.stringify writes -74863013342997264 as
            // -74863013342997260, which SQLite alone would read as that other, exact integer.
            typeof want === 'number'
            ? `type IN ('integer', 'real') AND CAST(value AS REAL) = ${bind(want)}`
            : `type = ${bind(want ? 'true' : 'false')}`;
      return `EXISTS (SELECT 1 FROM json_each(c.attributes) WHERE key = ${bind(key)} AND ${typed})`;
    },
  };
}

function postgresDialect(bind: (value: SqlParam) => string): Dialect {
  const at = (path: readonly string[]): string => `'{${checkedPath(path).join(',')}}'`;
  return {
    stateNumber: (path) => `(s.state #>> ${at(path)})::numeric`,
    stateSet: (path) => `jsonb_typeof(s.state #> ${at(path)}) <> 'null'`,
    consentGranted: (category) => `(s.state -> 'consent' -> ${bind(category)}::text ->> 'status') = 'granted'`,
    hasTag: (tag) => `c.tags @> jsonb_build_array(${bind(tag)}::text)`,
    attributeIs: (key, want) => {
      const k = bind(key);
      if (typeof want === 'boolean') return `(c.attributes -> ${k}::text) = ${bind(want ? 'true' : 'false')}::jsonb`;
      // CASE, not AND: PostgreSQL may evaluate a cast before the type check beside it.
      return typeof want === 'string'
        ? `CASE WHEN jsonb_typeof(c.attributes -> ${k}::text) = 'string' THEN lower((c.attributes ->> ${k}::text) COLLATE "und-x-icu") = ${bind(want.toLowerCase())}::text ELSE false END`
        : `CASE WHEN jsonb_typeof(c.attributes -> ${k}::text) = 'number' THEN (c.attributes ->> ${k}::text)::float8 = ${bind(want)}::float8 ELSE false END`;
    },
  };
}

function known(condition: string): string {
  return `(${condition}) IS TRUE`;
}

function all(conditions: readonly string[]): string {
  return conditions.length === 0 ? '1 = 1' : conditions.join(' AND ');
}

/** Conditions whose parameters are appended to `params`, after those already there. */
export function segmentSql(caps: Capabilities, params: SqlParam[]): SegmentSql {
  const bind = binder(params);
  const d = caps.dialect === 'sqlite' ? sqliteDialect(bind) : postgresDialect(bind);
  const inState = (state: Reachability, now: Millis): string => {
    switch (state) {
      case 'cooling_off':
        return known(`${bind(now)} < ${d.stateNumber(['marketing', 'coolOffUntil'])}`);
      case 'held':
        return known(d.stateSet(['marketing', 'experiment']));
      case 'stopped': // marketingStop: a stop holds unless a later resume lifted it
        return known(
          `${d.stateSet(['marketing', 'stopped'])} AND (${d.stateNumber(['marketing', 'resumed', 'at'])} > ${d.stateNumber(['marketing', 'stopped', 'at'])}) IS NOT TRUE`,
        );
      case 'unreachable': // unreachableCause: 131026 holds until the number is reached after it
        return known(
          `${d.stateSet(['unreachable'])} AND (${d.stateNumber(['lastReachedAt'])} > ${d.stateNumber(['unreachable', 'at'])}) IS NOT TRUE`,
        );
      default:
        throw new Error(`segment.exclude: unknown state ${JSON.stringify(state)}`);
    }
  };
  const match = (segment: SegmentDefinition, now: Millis): string => {
    const conditions: string[] = [];
    for (const tag of segment.tagsAll ?? []) conditions.push(d.hasTag(tag));
    const any = segment.tagsAny ?? [];
    if (any.length > 0) conditions.push(`(${any.map((tag) => d.hasTag(tag)).join(' OR ')})`);
    for (const tag of segment.tagsNone ?? []) conditions.push(`NOT ${d.hasTag(tag)}`);
    for (const [key, want] of Object.entries(segment.attributes ?? {})) {
      if (!['string', 'number', 'boolean'].includes(typeof want) || (typeof want === 'number' && !Number.isFinite(want))) {
        throw new Error(`segment.attributes.${key}: expected a string, a finite number or a boolean`);
      }
      conditions.push(known(d.attributeIs(key, want)));
    }
    for (const category of segment.consent ?? []) {
      if (!(CATEGORIES as readonly string[]).includes(category))
        throw new Error(`segment.consent: unknown category ${JSON.stringify(category)}`);
      conditions.push(known(d.consentGranted(category)));
    }
    if (segment.engagedWithinDays !== undefined) {
      if (!Number.isFinite(segment.engagedWithinDays)) throw new Error('segment.engagedWithinDays: expected a finite number');
      // Read a message in any category, or wrote to us, at or after `since`.
      const since = now - segment.engagedWithinDays * DAY;
      const times = [['lastInboundAt'], ...CATEGORIES.map((c) => ['engagement', c, 'lastReadAt'])];
      conditions.push(known(times.map((path) => `${d.stateNumber(path)} >= ${bind(since)}`).join(' OR ')));
    }
    for (const state of segment.exclude ?? []) conditions.push(`NOT ${inState(state, now)}`);
    return all(conditions);
  };
  return { match, inState };
}
