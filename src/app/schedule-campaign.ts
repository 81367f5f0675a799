import type { Millis } from '../core/time.js';
import type { Campaign, CampaignStatus, CampaignStore } from '../ports/store.js';

export type ScheduleCampaignResult =
  | { ok: true; campaign: Campaign }
  | { ok: false; problem: 'not_found' }
  /** Only a draft takes a new start time: a started campaign's rows are already due at the one it had. */
  | { ok: false; problem: 'not_draft'; status: CampaignStatus }
  /** Its end time would come before the new start. */
  | { ok: false; problem: 'ends_before_start'; endsAt: Millis };

/**
 * Sets when a draft campaign starts sending once started (null: as soon as it is started). The end
 * time, if it has one, must stay after it, as at creation.
 */
export async function scheduleCampaign(
  store: Pick<CampaignStore, 'getCampaign' | 'setDraftSchedule'>,
  id: number,
  scheduledAt: Millis | null,
  now: Millis,
): Promise<ScheduleCampaignResult> {
  const campaign = await store.getCampaign(id);
  if (campaign === null) return { ok: false, problem: 'not_found' };
  if (campaign.status !== 'draft') return { ok: false, problem: 'not_draft', status: campaign.status };
  const endsAt = campaign.endsAt ?? null;
  if (endsAt !== null && endsAt <= (scheduledAt ?? now)) return { ok: false, problem: 'ends_before_start', endsAt };
  // Guarded by status in the store as well: a start between the read and this write wins.
  if (!(await store.setDraftSchedule(id, scheduledAt, now))) {
    const after = await store.getCampaign(id);
    return after === null ? { ok: false, problem: 'not_found' } : { ok: false, problem: 'not_draft', status: after.status };
  }
  const updated = await store.getCampaign(id);
  if (updated === null) return { ok: false, problem: 'not_found' };
  return { ok: true, campaign: updated };
}
