import { DAY, type Millis } from '../core/time.js';
import type { Store } from '../ports/store.js';

/** How long an accepted message may still come back failed (Meta reports most failures in minutes). */
export const SETTLE_MS = DAY;

/**
 * A running campaign ends when none of its rows can still be sent: nothing queued, held, leased or
 * mid-send, and nothing accepted so recently that a failure webhook could still put it back in line.
 * (A paused campaign stays paused: an operator decides what happens to its rows.)
 */
export async function completeFinishedCampaigns(store: Store, now: Millis): Promise<number[]> {
  const done: number[] = [];
  for (const campaign of await store.listCampaigns({ status: 'running' })) {
    if ((await store.campaignOpenRows(campaign.id, now, SETTLE_MS)) === 0 && (await store.campaignCounters(campaign.id)).total > 0) {
      if (await store.setCampaignStatus(campaign.id, 'completed', null, now)) done.push(campaign.id);
    }
  }
  return done;
}
