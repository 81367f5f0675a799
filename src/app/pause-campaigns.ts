import type { Category } from '../core/category.js';
import type { EmitEvent } from '../core/outbound-event.js';
import type { Millis } from '../core/time.js';
import type { CampaignStore, Sender, TemplateStore } from '../ports/store.js';
import { changeCampaignStatus } from './record-events.js';
import { campaignSendsFrom } from './sender-pool.js';

/** Pauses running campaigns that match, with the reason shown to operators. Resume is explicit. */
export async function pauseRunningCampaigns(
  store: CampaignStore & TemplateStore,
  /** `senders`: only campaigns sending from one of these numbers (their own, or in their pool). */
  match: { templateId?: number; category?: Category; senders?: readonly Pick<Sender, 'id' | 'phoneNumberId'>[] },
  reason: string,
  now: Millis,
  emit: EmitEvent,
): Promise<number[]> {
  const paused: number[] = [];
  for (const campaign of await store.listCampaigns({ status: 'running' })) {
    if (match.templateId !== undefined && campaign.templateId !== match.templateId) continue;
    if (match.senders !== undefined && !match.senders.some((s) => campaignSendsFrom(campaign, s))) continue;
    if (match.category !== undefined) {
      const template = await store.getTemplateById(campaign.templateId);
      if (template !== null && template.category !== match.category) continue;
    }
    if (await changeCampaignStatus(store, campaign, 'paused', reason, now, emit)) paused.push(campaign.id);
  }
  return paused;
}
