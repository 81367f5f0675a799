import { DAY, type Millis } from '../core/time.js';
import type { CampaignOutboxStore, CampaignReportStore, CampaignStore, OutboundEventStore, Store } from '../ports/store.js';
import { changeCampaignStatus, withEvents } from './record-events.js';

/** How long an accepted message may still come back failed (Meta reports most failures in minutes). */
export const SETTLE_MS = DAY;

/**
 * A running campaign ends when none of its rows can still be sent: nothing queued, held, leased or
 * mid-send, and nothing accepted so recently that a failure webhook could still put it back in line.
 * (Before its end time, a paused campaign stays paused: an operator decides what happens to its rows.)
 */
export async function completeFinishedCampaigns(
  store: CampaignStore & CampaignOutboxStore & CampaignReportStore & OutboundEventStore & Partial<Pick<Store, 'transaction'>>,
  now: Millis,
): Promise<number[]> {
  const done: number[] = [];
  // Past its end time a campaign ends, paused or not: rows still held or not yet due are skipped.
  const running = await store.listCampaigns({ status: 'running' });
  const paused = await store.listCampaigns({ status: 'paused' });
  for (const campaign of [...running, ...paused]) {
    if (campaign.endsAt === undefined || campaign.endsAt === null || campaign.endsAt > now) continue;
    const reason = `ended at its end time; ${campaign.pauseReason ? `it was paused: ${campaign.pauseReason}` : 'rows still waiting were skipped'}`;
    const ended = await withEvents(store, now, async (tx, emit) => {
      await tx.cancelCampaignRows(campaign.id, now, 'skipped');
      return changeCampaignStatus(tx, campaign, 'completed', reason, now, emit);
    });
    if (ended) done.push(campaign.id);
  }
  for (const campaign of running) {
    if (done.includes(campaign.id)) continue;
    if ((await store.campaignOpenRows(campaign.id, now, SETTLE_MS)) === 0 && (await store.campaignCounters(campaign.id)).total > 0) {
      if (await withEvents(store, now, (tx, emit) => changeCampaignStatus(tx, campaign, 'completed', null, now, emit)))
        done.push(campaign.id);
    }
  }
  return done;
}
