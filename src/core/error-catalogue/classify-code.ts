import type { ErrorClass } from '../error-class.js';
import type { ErrorEntry } from '../error-entry.js';
import { findErrorByCode } from './find-by-code.js';

const CAP_CODE = 131049;

/**
 * The class a code has under the operator's policy. `capCodes` comes from Policy (131049 always;
 * 1026 when On-Premises-era traffic should count as the cap), so the same code can mean
 * "unreachable" for one deployment and "per-user marketing cap" for another.
 */
export function classifyCode(code: number, capCodes: readonly number[]): ErrorClass {
  if (capCodes.includes(code)) return 'per_user_marketing_cap';
  return findErrorByCode(code)?.class ?? 'unknown';
}

/**
 * The entry as policy sees it: a code listed in `capCodes` takes the cap's class, retry rule and
 * effects while keeping its own wording and page. Undefined for codes the catalogue does not know.
 */
export function resolveErrorEntry(code: number, capCodes: readonly number[]): ErrorEntry | undefined {
  const entry = findErrorByCode(code);
  if (entry === undefined || !capCodes.includes(code) || entry.class === 'per_user_marketing_cap') return entry;
  const cap = findErrorByCode(CAP_CODE);
  if (cap === undefined) return { ...entry, class: 'per_user_marketing_cap' };
  return { ...entry, class: cap.class, retry: cap.retry, effects: cap.effects };
}
