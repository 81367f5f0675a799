import { classifyCode } from './error-catalogue/index.js';
import { classTitle } from './error-class-label.js';
import type { ErrorClass } from './error-class.js';
import type { SkipReason } from './decision.js';

/** What happened to one recipient of a campaign, as an operator reads it. */
export type RecipientOutcome =
  | 'read' | 'delivered' | 'accepted'
  | 'capped_pending_retry' | 'retry_pending' | 'held_for_window' | 'waiting' | 'sending' | 'unknown'
  | 'capped_exhausted' | 'skipped' | 'failed' | 'cancelled';

/** One (status, outcome, last error code) cell of a campaign's rows, as the store counts them. */
export interface OutcomeCell {
  status: string;
  outcome: string | null;
  code: number | null;
  count: number;
}

export interface OutcomeGroup {
  /** Stable: `read`, `failed:recipient_undeliverable`, `skipped:no_consent`... */
  key: string;
  outcome: RecipientOutcome;
  label: string;
  errorClass: ErrorClass | null;
  count: number;
  /** Error codes inside the group, most frequent first. */
  codes: { code: number; count: number }[];
}

const SKIP_LABELS: Record<SkipReason, string> = {
  no_consent: 'Skipped: no recorded consent',
  consent_revoked: 'Skipped: consent revoked',
  marketing_stopped: 'Skipped: the contact stopped marketing',
  unreachable: 'Skipped: unreachable (not on WhatsApp or undeliverable)',
  us_marketing_pause: 'Skipped: US marketing pause',
  window_closed: 'Skipped: customer-service window closed',
  template_unavailable: 'Skipped: template unavailable',
  capped_exhausted: 'Cap attempts used up',
};
const ENDED_UNSENT = 'campaign_ended';

/**
 * A campaign's recipients grouped the way an operator asks about them: delivered and read, waiting
 * with the reason (a cap retry, a window hold), skipped with the decision's reason, failed by error
 * class. `skips` counts skipped rows by the reason of their skip decision; skipped rows without one
 * were left unsent when the campaign ended.
 */
export function recipientOutcomes(cells: readonly OutcomeCell[], skips: readonly { reason: string; count: number }[], capCodes: readonly number[]): OutcomeGroup[] {
  const groups = new Map<string, OutcomeGroup>();
  const add = (key: string, outcome: RecipientOutcome, label: string, errorClass: ErrorClass | null, count: number, code: number | null) => {
    const g = groups.get(key) ?? { key, outcome, label, errorClass, count: 0, codes: [] };
    g.count += count;
    if (code !== null) {
      const known = g.codes.find((c) => c.code === code);
      if (known) known.count += count;
      else g.codes.push({ code, count });
    }
    groups.set(key, g);
  };
  let skipped = 0;
  for (const c of cells) {
    const cls = c.code === null ? null : classifyCode(c.code, capCodes);
    switch (c.outcome) {
      case 'read': add('read', 'read', 'Read', null, c.count, null); break;
      case 'delivered': add('delivered', 'delivered', 'Delivered', null, c.count, null); break;
      case 'accepted': add('accepted', 'accepted', 'Accepted by Meta, no delivery report yet', null, c.count, null); break;
      case 'capped_exhausted': add('capped_exhausted', 'capped_exhausted', 'Cap attempts used up (the contact stays eligible later)', cls, c.count, c.code); break;
      case 'cancelled': add('cancelled', 'cancelled', 'Cancelled', null, c.count, null); break;
      case 'skipped': skipped += c.count; break;
      case 'failed': add(`failed:${cls ?? 'unknown'}`, 'failed', `Failed: ${cls === null ? 'no code' : classTitle(cls)}`, cls, c.count, c.code); break;
      case null:
      default: waiting(c, cls, add);
    }
  }
  let explained = 0;
  for (const s of skips) {
    explained += s.count;
    add(`skipped:${s.reason}`, 'skipped', SKIP_LABELS[s.reason as SkipReason] ?? `Skipped: ${s.reason}`, null, s.count, null);
  }
  if (skipped > explained) add(`skipped:${ENDED_UNSENT}`, 'skipped', 'Not sent before the campaign ended', null, skipped - explained, null);
  return [...groups.values()].map((g) => ({ ...g, codes: g.codes.sort((a, b) => b.count - a.count) })).sort((a, b) => b.count - a.count || a.key.localeCompare(b.key));
}

type Add = (key: string, outcome: RecipientOutcome, label: string, errorClass: ErrorClass | null, count: number, code: number | null) => void;

function waiting(c: OutcomeCell, cls: ErrorClass | null, add: Add): void {
  switch (c.status) {
    case 'held': return add('held_for_window', 'held_for_window', 'Held until the contact writes in', cls, c.count, c.code);
    case 'queued':
      if (cls === 'per_user_marketing_cap') return add('capped_pending_retry', 'capped_pending_retry', 'Capped by WhatsApp, retry scheduled', cls, c.count, c.code);
      if (cls !== null) return add(`retry_pending:${cls}`, 'retry_pending', `Retry scheduled: ${classTitle(cls)}`, cls, c.count, c.code);
      return add('waiting', 'waiting', 'Waiting to be sent', null, c.count, null);
    case 'unknown': return add('unknown', 'unknown', 'Fate unknown after a crash (never re-sent blindly)', null, c.count, null);
    default: return add('sending', 'sending', 'Being sent', null, c.count, null);
  }
}
