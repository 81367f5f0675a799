import type { JsonObject, JsonValue } from '../../../ports/store.js';
import type { Capabilities } from '../capabilities.js';
import { storableJson } from '../storable-text.js';
import type { SqlParam } from '../sql-executor.js';

/** Helpers that turn driver values into port values and back; SQL text is built from shapes, never values. */

export function int(value: unknown): number {
  return Number(value); // pg returns int8 as a string; the values we store fit in a double
}

export function intOrNull(value: unknown): number | null {
  return value === null || value === undefined ? null : Number(value);
}

export function textOrNull(value: unknown): string | null {
  return value === null || value === undefined ? null : String(value);
}

export function bool(value: unknown): boolean {
  return value === true || value === 1 || value === 1n;
}

export function bytes(value: unknown): Uint8Array {
  if (value instanceof Uint8Array) return value;
  throw new TypeError(`expected bytes from the database, got ${typeof value}`);
}

export function json<T extends JsonValue = JsonObject>(caps: Capabilities, value: unknown): T {
  return (caps.jsonParsedOnRead ? value : JSON.parse(String(value))) as T;
}

export function toJson(value: JsonValue | object): string {
  return storableJson(JSON.stringify(value));
}

/** Placeholder lists already built: batches ask for the same few shapes over and over. */
const VALUES_LISTS = new Map<string, string>();

/** `($1, $2), ($3, $4)` for `rows` rows of `width` values. */
export function valuesList(rows: number, width: number): string {
  const key = `${rows}x${width}`;
  const known = VALUES_LISTS.get(key);
  if (known !== undefined) return known;
  const groups: string[] = [];
  for (let row = 0; row < rows; row += 1) {
    const cells: string[] = [];
    for (let col = 1; col <= width; col += 1) cells.push(`$${row * width + col}`);
    groups.push(`(${cells.join(', ')})`);
  }
  const list = groups.join(', ');
  // Bounded: a shape is a (rows ≤ 500, width) pair, and widths are a handful of constants.
  if (VALUES_LISTS.size < 4096) VALUES_LISTS.set(key, list);
  return list;
}

/** `$from, $from+1, ...` for an IN list. */
export function inList(count: number, from = 1): string {
  return Array.from({ length: count }, (_, i) => `$${from + i}`).join(', ');
}

/**
 * For SQL assembled from parts: each call binds one value to `params` and returns its placeholder,
 * so a value never enters the SQL text whichever part asks for it.
 */
export function binder(params: SqlParam[]): (value: SqlParam) => string {
  return (value) => {
    params.push(value);
    return `$${params.length}`;
  };
}

/** Splits rows so one statement stays under the backend's parameter limit. */
export function chunks<T>(items: readonly T[], width: number, caps: Capabilities): T[][] {
  const size = Math.max(1, Math.min(500, Math.floor(caps.maxParams / width)));
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

export type { SqlParam };

/**
 * SQL reading one value out of a JSON column, as text or as a number. `path` names object keys and
 * comes from code, never from input.
 */
export function jsonValue(caps: Capabilities, column: string, path: readonly string[], as: 'text' | 'number'): string {
  if (path.some((key) => !/^[A-Za-z_]\w*$/.test(key))) throw new Error(`jsonValue: bad path ${path.join('.')}`);
  if (caps.jsonRead === 'json_extract') return `json_extract(${column}, '$.${path.join('.')}')`;
  const text = `(${column} #>> '{${path.join(',')}}')`;
  return as === 'number' ? `${text}::bigint` : text;
}
