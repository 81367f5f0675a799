import type { CampaignSender, SenderOverview, SendingVerdict } from '../../app/sender-overview.js';
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

/** `+1 555-0100 (106540352242922)`: the business's own number, shown whole, and Meta's id. */
export function senderLabel(c: { displayNumber: string; phoneNumberId: string; verifiedName: string | null }): string {
  return `${c.displayNumber}${c.verifiedName === null ? '' : ` ${c.verifiedName}`} (${c.phoneNumberId})`;
}
