import type { Millis } from '../core/time.js';
import type { CampaignOutboxStore, CampaignStore, TemplateStore } from '../ports/store.js';
import type { WorkQueued } from '../ports/work-signal.js';
import type { OutboxIntent } from './outbox-intent.js';
import { parseSegment } from './segment-schema.js';

// Contacts per page; each page is one transaction, so other writers get their turn in between.
const PAGE = 5000;

export interface StartCampaignResult {
  scanned: number;
  matched: number;
  /** New outbox rows; 0 when the campaign was already started (starting twice never creates twice). */
  inserted: number;
}

/**
 * Expands a campaign's segment into one outbox row per contact and sets it running. Rows are due at
 * the campaign's scheduled time; `decide` still judges each one when it comes up.
 */
export async function startCampaign(
  store: CampaignStore & TemplateStore & CampaignOutboxStore,
  campaignId: number,
  sender: { phoneNumberId: string },
  now: Millis,
  signal: WorkQueued,
): Promise<StartCampaignResult> {
  const campaign = await store.getCampaign(campaignId);
  if (campaign === null) throw new Error(`campaign ${campaignId} does not exist`);
  if (campaign.status === 'cancelled' || campaign.status === 'completed')
    throw new Error(`campaign ${campaignId} is ${campaign.status}; it cannot start again`);
  const template = await store.getTemplateById(campaign.templateId);
  if (template === null) throw new Error(`campaign ${campaignId}: template ${campaign.templateId} does not exist`);
  const segment = parseSegment(campaign.segment, `campaign ${campaignId} segment`);
  const dueAt = Math.max(now, campaign.scheduledAt ?? now);
  const intent = {
    phoneNumberId: sender.phoneNumberId,
    template: { name: template.name, language: template.language },
  } satisfies OutboxIntent;

  const plan = { campaignId, senderId: campaign.senderId, category: template.category, intent, nextAttemptAt: dueAt, segment };
  const result: StartCampaignResult = { scanned: 0, matched: 0, inserted: 0 };
  // The segment is matched inside the store (matchesSegment's rules as SQL): no contact is loaded here.
  for (let afterId = 0; ;) {
    const page = await store.insertSegmentOutbox(plan, afterId, PAGE, now);
    if (page.lastContactId === null) break;
    afterId = page.lastContactId;
    result.scanned += page.scanned;
    result.matched += page.matched;
    result.inserted += page.inserted;
  }
  // Starting again never lifts a pause: a breaker's or an operator's pause ends only with a resume.
  if (campaign.status !== 'paused') {
    await store.setCampaignStatus(campaignId, 'running', null, now);
    signal.notifyQueued(dueAt);
  }
  return result;
}
