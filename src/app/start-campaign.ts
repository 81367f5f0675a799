import { matchesSegment } from '../core/segment.js';
import type { Millis } from '../core/time.js';
import type { OutboxInput, Store } from '../ports/store.js';
import type { OutboxIntent } from './outbox-intent.js';
import { parseSegment } from './segment-schema.js';
import { EMPTY_CONTACT_STATE } from '../core/contact-state.js';

// Contacts read (with their states) per page; each page's matches go in as one insertOutbox call.
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
export async function startCampaign(store: Store, campaignId: number, sender: { phoneNumberId: string }, now: Millis): Promise<StartCampaignResult> {
  const campaign = await store.getCampaign(campaignId);
  if (campaign === null) throw new Error(`campaign ${campaignId} does not exist`);
  if (campaign.status === 'cancelled' || campaign.status === 'completed') throw new Error(`campaign ${campaignId} is ${campaign.status}; it cannot start again`);
  const template = await store.getTemplateById(campaign.templateId);
  if (template === null) throw new Error(`campaign ${campaignId}: template ${campaign.templateId} does not exist`);
  const segment = parseSegment(campaign.segment, `campaign ${campaignId} segment`);
  const dueAt = Math.max(now, campaign.scheduledAt ?? now);
  const intent = { phoneNumberId: sender.phoneNumberId, template: { name: template.name, language: template.language } } satisfies OutboxIntent;

  let afterId = 0;
  const result: StartCampaignResult = { scanned: 0, matched: 0, inserted: 0 };
  for (;;) {
    const contacts = await store.listContactsWithState(afterId, PAGE);
    if (contacts.length === 0) break;
    afterId = contacts[contacts.length - 1]?.contact.id ?? afterId;
    const rows: OutboxInput[] = [];
    for (const { contact, state } of contacts) {
      if (!matchesSegment(contact, state?.state ?? EMPTY_CONTACT_STATE, segment, now)) continue;
      rows.push({ campaignId, contactId: contact.id, senderId: campaign.senderId, category: template.category, intent, idempotencyKey: null, nextAttemptAt: dueAt });
    }
    result.scanned += contacts.length;
    result.matched += rows.length;
    if (rows.length > 0) result.inserted += (await store.insertOutbox(rows, now)).inserted;
  }
  // Starting again never lifts a pause: a breaker's or an operator's pause ends only with a resume.
  if (campaign.status !== 'paused') await store.setCampaignStatus(campaignId, 'running', null, now);
  return result;
}
