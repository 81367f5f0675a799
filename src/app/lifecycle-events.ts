import type { NewOutboundEvent } from '../core/outbound-event.js';
import { iso, type Millis } from '../core/time.js';
import type { CampaignStatus, Sender, SenderInput } from '../ports/store.js';

type HealthFacts = Pick<SenderInput, 'qualityRating' | 'messagingLimitTier' | 'state' | 'stateReason'> & { metaStatus?: string | null };

/**
 * A number's health as subscribers hear of it: its quality, messaging limit, Meta's status and
 * whether Pacer may send from it. Null when none of those changed.
 */
export function senderHealthEvent(
  sender: Pick<Sender, 'phoneNumberId' | 'displayNumber'>,
  before: HealthFacts | null,
  after: HealthFacts,
  source: string,
  at: Millis,
): NewOutboundEvent | null {
  const same =
    before !== null &&
    before.qualityRating === after.qualityRating &&
    before.messagingLimitTier === after.messagingLimitTier &&
    before.state === after.state &&
    before.stateReason === after.stateReason &&
    (before.metaStatus ?? null) === (after.metaStatus ?? before.metaStatus ?? null);
  if (same) return null;
  const facts = (f: HealthFacts | null) =>
    f === null
      ? null
      : {
          quality: f.qualityRating,
          messagingLimit: f.messagingLimitTier,
          metaStatus: f.metaStatus ?? null,
          state: f.state,
          reason: f.stateReason,
        };
  return {
    type: 'sender.health_changed',
    occurredAt: at,
    contactId: null,
    campaignId: null,
    phoneNumberId: sender.phoneNumberId,
    data: {
      phoneNumberId: sender.phoneNumberId,
      displayNumber: sender.displayNumber,
      source,
      at: iso(at),
      before: facts(before),
      after: facts(after),
    },
  };
}

const CAMPAIGN_EVENT: Partial<Record<CampaignStatus, NewOutboundEvent['type']>> = {
  paused: 'campaign.paused',
  completed: 'campaign.completed',
  cancelled: 'campaign.cancelled',
};

/** A campaign's status change as subscribers hear of it: paused (with why), resumed, started, completed, cancelled. */
export function campaignStatusEvent(
  campaign: { id: number; name: string },
  from: CampaignStatus,
  to: CampaignStatus,
  reason: string | null,
  at: Millis,
): NewOutboundEvent | null {
  const type = to === 'running' ? (from === 'paused' ? 'campaign.resumed' : 'campaign.started') : CAMPAIGN_EVENT[to];
  if (type === undefined || from === to) return null;
  return {
    type,
    occurredAt: at,
    contactId: null,
    campaignId: campaign.id,
    phoneNumberId: null,
    data: { campaignId: campaign.id, name: campaign.name, status: to, previous: from, reason, at: iso(at) },
  };
}
