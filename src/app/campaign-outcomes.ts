import { policyForCampaign, type FrequencyCap, type Policy } from '../core/policy.js';
import { recipientOutcomes, type OutcomeGroup } from '../core/recipient-outcomes.js';
import type { Campaign, CampaignReportStore } from '../ports/store.js';

/**
 * A campaign's recipients grouped by what happened to them, the waiting ones by the reason of their
 * latest decision and until when: what `pacer campaign status`, the REST API and the dashboard show.
 */
export async function campaignOutcomes(
  store: Pick<CampaignReportStore, 'outboxBreakdown' | 'skipReasons' | 'waitingReasons'>,
  campaign: Campaign,
  policy: Pick<Policy, 'capCodes'>,
): Promise<OutcomeGroup[]> {
  const [breakdown, skips, waiting] = await Promise.all([
    store.outboxBreakdown(campaign.id),
    store.skipReasons(campaign.id),
    store.waitingReasons(campaign.id),
  ]);
  return recipientOutcomes(breakdown, skips, policy.capCodes, waiting);
}

/** The frequency cap `decide` applies to this campaign's rows (null: none), and who set it. */
export function frequencyCapInEffect(campaign: Campaign, policy: Policy): { cap: FrequencyCap | null; from: 'campaign' | 'configuration' } {
  return { cap: policyForCampaign(policy, campaign).frequencyCap, from: campaign.frequencyCap ? 'campaign' : 'configuration' };
}
