import type { RecipientShare } from '../../../core/sender-pool.js';
import type { SqlParam } from '../sql-executor.js';
import { binder } from './values.js';

/**
 * One number's share of a pool campaign's audience, as a condition on `contacts c`, its values
 * bound into `params`; `TRUE` when the campaign has no pool. Shares of one pool are disjoint and
 * together cover everyone (recipients known by user id alone fall to `other_calling_codes`).
 */
export function shareSql(share: RecipientShare | undefined, params: SqlParam[]): string {
  if (share === undefined) return '1 = 1';
  const bind = binder(params);
  switch (share.kind) {
    case 'modulo':
      return `c.id % ${bind(share.of)} = ${bind(share.is)}`;
    case 'calling_codes':
      return `(${share.codes.map((code) => `c.phone_e164 LIKE ${bind(`+${code}%`)}`).join(' OR ')})`;
    case 'other_calling_codes':
      return `(c.phone_e164 IS NULL OR NOT (${share.codes.map((code) => `c.phone_e164 LIKE ${bind(`+${code}%`)}`).join(' OR ')}))`;
  }
}
