/**
 * What Meta's phone-number fields mean for sending. Only CONNECTED numbers send and receive; the
 * others are stopped until Meta reports them connected again. A stop Pacer set from Meta's status
 * carries `META_STATUS_REASON`'s wording, so a later read may lift it; any other stop (a refused
 * token, an account restriction, an operator) only its own signal lifts.
 */
export const META_STATUS_REASON = 'Meta reports the number as';

/** Meta's default and raised throughput (messages a second). */
export const STANDARD_MPS = 80;
export const HIGH_MPS = 1000;

export type SenderHealthState = { state: 'ok' } | { state: 'stopped'; reason: string } | { state: 'unchanged' };

/**
 * Whether Meta's `status` lets the number send. FLAGGED is a quality warning (the number still
 * sends, and Pacer's quality breaker holds its marketing back); RATE_LIMITED and UNKNOWN pass with
 * time. The rest (BANNED, RESTRICTED, DISCONNECTED, PENDING…) do not send until Meta says CONNECTED.
 */
export function metaStatusSends(status: string): boolean {
  const s = status.trim().toUpperCase();
  return s === 'CONNECTED' || s === 'FLAGGED' || s === 'RATE_LIMITED' || s === 'UNKNOWN';
}

/** The state Meta's `status` implies, given the state Pacer holds. */
export function stateFromMetaStatus(
  status: string | null,
  current: { state: 'ok' | 'throttled' | 'stopped'; stateReason: string | null },
): SenderHealthState {
  if (status === null) return { state: 'unchanged' };
  const s = status.trim().toUpperCase();
  const sends = metaStatusSends(s);
  const ours = current.state === 'stopped' && (current.stateReason ?? '').startsWith(META_STATUS_REASON);
  if (sends) return ours ? { state: 'ok' } : { state: 'unchanged' };
  const reason = `${META_STATUS_REASON} ${s}: it cannot send until Meta reports it CONNECTED`;
  if (current.state === 'stopped' && current.stateReason === reason) return { state: 'unchanged' };
  // A stop for another reason stands; Meta's status is recorded beside it.
  if (current.state === 'stopped' && !ours) return { state: 'unchanged' };
  return { state: 'stopped', reason };
}

/** Messages a second for Meta's `throughput.level`; null when the level says nothing known. */
export function throughputOfLevel(level: string | null): number | null {
  if (level === null) return null;
  const l = level.toUpperCase();
  return l === 'HIGH' ? HIGH_MPS : l === 'STANDARD' ? STANDARD_MPS : null;
}
