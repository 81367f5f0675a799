import type { ErrorEntry } from '../error-entry.js';
import { ERROR_CATALOGUE } from './catalogue.js';

const BY_CODE = new Map<number, ErrorEntry>(ERROR_CATALOGUE.map((entry) => [entry.code, entry]));
const RANGES = ERROR_CATALOGUE.filter((entry) => entry.codeTo !== undefined);

/** The entry for a code; a single-code entry wins over a range that also covers it (e.g. 200-299). */
export function findErrorByCode(code: number): ErrorEntry | undefined {
  const exact = BY_CODE.get(code);
  if (exact !== undefined) return exact;
  return RANGES.find((entry) => entry.codeTo !== undefined && code >= entry.code && code <= entry.codeTo);
}

/** "131049" or "200-299": how a code is written in docs, file names and lists. */
export function codeLabel(entry: Pick<ErrorEntry, 'code' | 'codeTo'>): string {
  return entry.codeTo === undefined ? String(entry.code) : `${entry.code}-${entry.codeTo}`;
}
