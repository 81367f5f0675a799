import type { CampaignNumbers, CampaignSender, SenderOverview, SendingVerdict } from '../../app/sender-overview.js';
import { iso, type Millis } from '../../core/time.js';

const isoOrNull = (ms: Millis | null): string | null => (ms === null ? null : iso(ms));

/** One sentence for whether a number sends: `sending`, `waits until …: …`, `cannot send: …`. */
export function sendingSentence(v: SendingVerdict, when: (ms: Millis) => string = iso): string {
  switch (v.kind) {
    case 'sends':
      return 'sending';
    case 'waits':
      return `waits${v.until === null ? '' : ` until ${when(v.until)}`}: ${v.reason}`;
    case 'cannot_send':
      return `cannot send: ${v.reasons.join('; ')}`;
  }
}

/** Whether a number sends, as JSON: `canSend` and the reasons it does not (or waits). */
export function sendingJson(v: SendingVerdict) {
  return {
    canSend: v.kind !== 'cannot_send',
    sending: v.kind,
    problems: v.kind === 'cannot_send' ? v.reasons : v.kind === 'waits' ? [v.reason] : [],
    resumesAt: v.kind === 'waits' ? isoOrNull(v.until) : null,
  };
}

/** A sender number as the REST API and the CLI print it (times in ISO 8601). */
export function senderOverviewJson(o: SenderOverview) {
  const s = o.sender;
  return {
    id: s.id,
    phoneNumberId: s.phoneNumberId,
    displayNumber: s.displayNumber,
    verifiedName: s.verifiedName,
    businessAccountId: s.businessAccountId,
    portfolioId: s.portfolioId,
    metaStatus: s.metaStatus,
    nameStatus: s.nameStatus,
    state: s.state,
    stateReason: s.stateReason,
    stateUntil: isoOrNull(s.stateUntil),
    ...sendingJson(o.sending),
    qualityRating: s.qualityRating,
    throughputMps: s.throughputMps,
    throughputLevel: s.throughputLevel,
    messagingLimit: {
      tier: o.limit.tier,
      perDay: o.limit.perDay,
      unlimited: o.limit.unlimited,
      portfolio: o.limit.portfolioKey,
      portfolioNumbers: o.limit.portfolioNumbers,
      usedLast24h: o.limit.usedLast24h,
    },
    campaigns: o.campaigns,
    syncedAt: isoOrNull(s.syncedAt),
    updatedAt: iso(s.updatedAt),
  };
}

/** A number's changes, oldest first. */
export function senderHistoryJson(o: SenderOverview) {
  return (o.history ?? []).map((c) => ({
    at: iso(c.at),
    qualityRating: c.qualityRating,
    messagingLimitTier: c.messagingLimitTier,
    state: c.state,
    stateReason: c.stateReason,
    source: c.source,
  }));
}

/** The number a campaign sends from, for `pacer campaign status --json` and the REST API. */
export function campaignSenderJson(c: CampaignSender) {
  return {
    id: c.id,
    phoneNumberId: c.phoneNumberId,
    displayNumber: c.displayNumber,
    verifiedName: c.verifiedName,
    state: c.state,
    stateReason: c.stateReason,
    stateUntil: isoOrNull(c.stateUntil),
    metaStatus: c.metaStatus,
    ...sendingJson(c.sending),
  };
}

/**
 * The numbers a campaign sends from: `sender` is its own number (`senderId`), `sendsFrom` every
 * number with its pool's kind and the pool's numbers Pacer does not know.
 */
export function campaignNumbersJson(n: CampaignNumbers, senderId: number) {
  const own = n.senders.find((s) => s.id === senderId);
  return {
    sender: own === undefined ? null : campaignSenderJson(own),
    sendsFrom: { pool: n.pool, senders: n.senders.map(campaignSenderJson), unknown: n.unknown },
  };
}

/** Lines for people: one when the campaign has one number, else a heading and a line per number. */
export function campaignNumbersLines(n: CampaignNumbers, when: (ms: Millis) => string = iso): string[] {
  const line = (s: CampaignSender) => `${senderLabel(s)}: state ${s.state}, ${sendingSentence(s.sending, when)}.`;
  const unknown = n.unknown.map(
    (id) => `${id.startsWith('#') ? `sender ${id}` : id}: not a number Pacer knows (pacer sender sync reads them from Meta).`,
  );
  const [only] = n.senders;
  if (n.pool === null && only !== undefined && n.senders.length === 1 && unknown.length === 0) return [`From ${line(only)}`];
  if (n.pool === null && n.senders.length === 0) return [`From ${unknown[0] ?? 'no number'}`];
  return [
    `From ${n.senders.length + n.unknown.length} numbers${n.pool === null ? '' : ` (pool: ${n.pool})`}:`,
    ...n.senders.map((s) => `  ${line(s)}`),
    ...unknown.map((u) => `  ${u}`),
  ];
}

/** `+1 555-0100 (106540352242922)`: the business's own number, shown whole, and Meta's id. */
export function senderLabel(c: { displayNumber: string; phoneNumberId: string; verifiedName: string | null }): string {
  return `${c.displayNumber}${c.verifiedName === null ? '' : ` ${c.verifiedName}`} (${c.phoneNumberId})`;
}
