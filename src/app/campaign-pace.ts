import { campaignPaceOf, MESSAGING_LIMIT_WINDOW_MS, type CampaignPace } from '../core/messaging-limit.js';
import type { Millis } from '../core/time.js';
import type { Campaign, ConversationStore, SenderStore } from '../ports/store.js';

/** The campaign's pace on its sender number, from the stored tier and conversations. */
/** `waiting`: the campaign's rows still to send (queued or held), as the caller already counted them. */
export async function campaignPace(
  store: SenderStore & ConversationStore,
  campaign: Campaign,
  waiting: number,
  now: Millis,
): Promise<CampaignPace> {
  const sender = await store.getSenderById(campaign.senderId);
  const usedLast24h = sender === null ? 0 : (await store.conversationWindow(sender.id, now - MESSAGING_LIMIT_WINDOW_MS)).people;
  return campaignPaceOf({ tier: sender?.messagingLimitTier ?? null, usedLast24h, waiting, throughputMps: sender?.throughputMps ?? null });
}
