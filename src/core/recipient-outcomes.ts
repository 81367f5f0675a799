import { classifyCode } from './error-catalogue/index.js';
import { classTitle } from './error-class-label.js';
import type { ErrorClass } from './error-class.js';
import type { DeferReason, SkipReason } from './decision.js';
import { iso, type Millis } from './time.js';

/** What happened to one recipient of a campaign, as an operator reads it. */
export type RecipientOutcome =
  | 'read'
  | 'delivered'
  | 'accepted'
  | 'capped_pending_retry'
  | 'retry_pending'
  | 'deferred'
  | 'held_for_window'
  | 'held_for_operator'
  | 'waiting'
  | 'sending'
  | 'unknown'
  | 'capped_exhausted'
  | 'skipped'
  | 'failed'
  | 'cancelled';

/** One (status, outcome, last error code) cell of a campaign's rows, as the store counts them. */
export interface OutcomeCell {
  status: string;
  outcome: string | null;
  code: number | null;
  count: number;
}

/**
 * Rows still waiting (queued or held) with the same status, last error code and latest decision, as
 * the store counts them: what `decide` last said about them, and when they are next due.
 */
export interface WaitingCell {
  status: 'queued' | 'held';
  code: number | null;
  /** Kind and reason of the row's latest decision; null before its first one. */
  decision: { kind: string; reason: string } | null;
  count: number;
  /** Earliest and latest next attempt among them (a defer's until, a retry's time); null when none has one. */
  firstAt: Millis | null;
  lastAt: Millis | null;
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
  /** Waiting groups: the earliest and latest time their rows are next due. */
  until?: { first: Millis; last: Millis };
}

const SKIP_LABELS: Record<SkipReason, string> = {
  no_consent: 'Skipped: no recorded consent',
  consent_revoked: 'Skipped: consent revoked',
  marketing_stopped: 'Skipped: the contact stopped marketing',
  unreachable: 'Skipped: unreachable (not on WhatsApp or undeliverable)',
  us_marketing_pause: 'Skipped: US marketing pause',
  window_closed: 'Skipped: customer-service window closed',
  template_unavailable: 'Skipped: template unavailable',
  needs_phone_number: 'Skipped: authentication needs the phone number (131062)',
  missing_parameter: 'Skipped: a template value is missing',
  invalid_parameter: 'Skipped: a template value Meta would refuse',
  capped_exhausted: 'Cap attempts used up',
  expired: 'Expired: it could not go before its end time',
};
const ENDED_UNSENT = 'campaign_ended';

const DEFER_LABELS: Record<DeferReason, string> = {
  frequency_cap: 'Deferred by your frequency cap',
  marketing_cool_off: "Cooling off after WhatsApp's per-user cap",
  template_paused: 'Deferred: the template is paused by Meta',
  sender_throttled: 'Deferred: the sender number is backing off',
  sender_stopped: 'Deferred: the sender number is stopped',
  messaging_limit: "Deferred by the number's messaging limit",
  pair_rate: 'Spaced out: this number messaged the person moments ago',
  outside_send_window: "Waiting for the recipient's send window (local time)",
  spread_in_window: "Waiting for its turn in the campaign's spread",
};

/**
 * A campaign's recipients grouped the way an operator asks about them: delivered and read, waiting
 * with the reason (a cap retry, a window hold), skipped with the decision's reason, failed by error
 * class. `skips` counts skipped rows by the reason of their skip decision; skipped rows without one
 * were left unsent when the campaign ended. With `waiting`, the rows still waiting are grouped from
 * it instead of `cells`: rows a decision deferred by the reason it gave, with until when.
 */
export function recipientOutcomes(
  cells: readonly OutcomeCell[],
  skips: readonly { reason: string; count: number }[],
  capCodes: readonly number[],
  waiting?: readonly WaitingCell[],
): OutcomeGroup[] {
  const groups = new Map<string, OutcomeGroup>();
  const add: Add = (key, outcome, label, errorClass, count, code, times = null) => {
    const g = groups.get(key) ?? { key, outcome, label, errorClass, count: 0, codes: [] };
    g.count += count;
    if (code !== null) {
      const known = g.codes.find((c) => c.code === code);
      if (known) known.count += count;
      else g.codes.push({ code, count });
    }
    if (times !== null)
      g.until =
        g.until === undefined ? { ...times } : { first: Math.min(g.until.first, times.first), last: Math.max(g.until.last, times.last) };
    groups.set(key, g);
  };
  let skipped = 0;
  for (const w of waiting ?? []) {
    const cls = w.code === null ? null : classifyCode(w.code, capCodes);
    const times = w.status === 'queued' && w.firstAt !== null && w.lastAt !== null ? { first: w.firstAt, last: w.lastAt } : null;
    const deferred = w.status === 'queued' && w.decision?.kind === 'defer' ? w.decision.reason : null;
    if (deferred !== null)
      add(
        `deferred:${deferred}`,
        'deferred',
        DEFER_LABELS[deferred as DeferReason] ?? `Deferred: ${deferred}`,
        cls,
        w.count,
        w.code,
        times,
      );
    else waitingGroup({ status: w.status, outcome: null, code: w.code, count: w.count }, cls, add, times);
  }
  for (const c of cells) {
    if (waiting !== undefined && c.outcome === null && (c.status === 'queued' || c.status === 'held')) continue;
    const cls = c.code === null ? null : classifyCode(c.code, capCodes);
    switch (c.outcome) {
      case 'read':
        add('read', 'read', 'Read', null, c.count, null);
        break;
      case 'delivered':
        add('delivered', 'delivered', 'Delivered', null, c.count, null);
        break;
      case 'accepted':
        add('accepted', 'accepted', 'Accepted by Meta, no delivery report yet', null, c.count, null);
        break;
      case 'capped_exhausted':
        add('capped_exhausted', 'capped_exhausted', 'Cap attempts used up (the contact stays eligible later)', cls, c.count, c.code);
        break;
      case 'cancelled':
        add('cancelled', 'cancelled', 'Cancelled', null, c.count, null);
        break;
      case 'skipped':
        skipped += c.count;
        break;
      case 'failed':
        add(`failed:${cls ?? 'unknown'}`, 'failed', `Failed: ${cls === null ? 'no code' : classTitle(cls)}`, cls, c.count, c.code);
        break;
      case null:
      default:
        waitingGroup(c, cls, add);
    }
  }
  let explained = 0;
  for (const s of skips) {
    explained += s.count;
    add(`skipped:${s.reason}`, 'skipped', SKIP_LABELS[s.reason as SkipReason] ?? `Skipped: ${s.reason}`, null, s.count, null);
  }
  if (skipped > explained) add(`skipped:${ENDED_UNSENT}`, 'skipped', 'Not sent before the campaign ended', null, skipped - explained, null);
  return [...groups.values()]
    .map((g) => ({ ...g, codes: g.codes.sort((a, b) => b.count - a.count) }))
    .sort((a, b) => b.count - a.count || a.key.localeCompare(b.key));
}

type Times = { first: Millis; last: Millis } | null;
type Add = (
  key: string,
  outcome: RecipientOutcome,
  label: string,
  errorClass: ErrorClass | null,
  count: number,
  code: number | null,
  times?: Times,
) => void;

function waitingGroup(c: OutcomeCell, cls: ErrorClass | null, add: Add, times: Times = null): void {
  switch (c.status) {
    case 'held':
      if (cls === 'account_problem' || cls === 'auth_permission')
        return add(
          `held_for_operator:${cls}`,
          'held_for_operator',
          `Held until an operator fixes it: ${classTitle(cls)}`,
          cls,
          c.count,
          c.code,
        );
      return add('held_for_window', 'held_for_window', 'Held until the contact writes in', cls, c.count, c.code);
    case 'queued':
      if (cls === 'per_user_marketing_cap')
        return add('capped_pending_retry', 'capped_pending_retry', 'Capped by WhatsApp, retry scheduled', cls, c.count, c.code, times);
      if (cls !== null)
        return add(`retry_pending:${cls}`, 'retry_pending', `Retry scheduled: ${classTitle(cls)}`, cls, c.count, c.code, times);
      return add('waiting', 'waiting', 'Waiting to be sent', null, c.count, null, times);
    case 'unknown':
      return add('unknown', 'unknown', 'Fate unknown after a crash (never re-sent blindly)', null, c.count, null);
    default:
      return add('sending', 'sending', 'Being sent', null, c.count, null);
  }
}

/** When a waiting group's rows are next due, as a phrase: `until 2026-12-08 09:00 UTC`, or a range. */
export function untilPhrase(g: Pick<OutcomeGroup, 'outcome' | 'until'>, format: (at: Millis) => string = minuteUtc): string | null {
  if (g.until === undefined) return null;
  const word = g.outcome === 'waiting' ? 'due' : 'until';
  const { first, last } = g.until;
  return format(first) === format(last) ? `${word} ${format(last)}` : `${word} ${format(first)} to ${format(last)}`;
}

function minuteUtc(at: Millis): string {
  return `${iso(at).slice(0, 16).replace('T', ' ')} UTC`;
}
