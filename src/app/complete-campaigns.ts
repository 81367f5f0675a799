import type { Millis } from '../core/time.js';
import type { Store } from '../ports/store.js';

/**
 * A running campaign ends when none of its rows can still be sent: nothing queued, held, leased or
 * mid-send. (A paused campaign stays paused: an operator decides what happens to its rows.)
 */
export async function completeFinishedCampaigns(store: Store, now: Millis): Promise<number[]> {
  const done: number[] = [];
  for (const campaign of await store.listCampaigns({ status: 'running' })) {
    const c = await store.campaignCounters(campaign.id);
    if (c.total > 0 && c.queued + c.held + c.leased + c.sending === 0) {
      if (await store.setCampaignStatus(campaign.id, 'completed', null, now)) done.push(campaign.id);
    }
  }
  return done;
}
