import { OPERATOR_HOLD_CODES } from '../core/retry-plan.js';
import type { Millis } from '../core/time.js';
import type {
  Campaign,
  CampaignOutboxStore,
  CampaignStatus,
  CampaignStore,
  OutboundEventStore,
  SenderStore,
  Store,
} from '../ports/store.js';
import type { WorkQueued } from '../ports/work-signal.js';
import { senderHealthEvent } from './lifecycle-events.js';
import { changeCampaignStatus, withEvents } from './record-events.js';

export class CampaignActionError extends Error {
  override readonly name = 'CampaignActionError';
}

const ALLOWED: Record<'pause' | 'resume' | 'cancel', readonly CampaignStatus[]> = {
  pause: ['running', 'scheduled'],
  resume: ['paused'],
  cancel: ['draft', 'scheduled', 'running', 'paused'],
};

/**
 * Operator actions on a campaign. A breaker's pause is lifted only by an explicit resume, which says
 * the operator fixed what stopped it: a stopped sender number may send again, and the rows held for
 * that fix go back in line (if it is not fixed, the next refusal stops and pauses all over again).
 */
export async function campaignAction(
  store: CampaignStore &
    CampaignOutboxStore &
    Pick<SenderStore, 'getSenderById' | 'setSenderState'> &
    OutboundEventStore &
    Partial<Pick<Store, 'transaction'>>,
  id: number,
  action: 'pause' | 'resume' | 'cancel',
  now: Millis,
  signal: WorkQueued,
  reason?: string,
): Promise<Campaign> {
  const campaign = await store.getCampaign(id);
  if (campaign === null) throw new CampaignActionError(`campaign ${id} does not exist`);
  if (!ALLOWED[action].includes(campaign.status)) {
    throw new CampaignActionError(`campaign ${id} is ${campaign.status}; it cannot be ${action === 'cancel' ? 'cancelled' : `${action}d`}`);
  }
  const next: CampaignStatus = action === 'pause' ? 'paused' : action === 'resume' ? 'running' : 'cancelled';
  await withEvents(store, now, async (tx, emit) => {
    await changeCampaignStatus(tx, campaign, next, action === 'pause' ? (reason ?? 'paused by an operator') : null, now, emit);
    if (action === 'cancel') await tx.cancelCampaignRows(id, now);
    if (action !== 'resume') return;
    const sender = await tx.getSenderById(campaign.senderId);
    if (sender?.state === 'stopped') {
      await tx.setSenderState(sender.phoneNumberId, 'ok', null, null, now);
      const lifted = senderHealthEvent(sender, sender, { ...sender, state: 'ok', stateReason: null }, `campaign ${id} resumed`, now);
      if (lifted !== null) emit(lifted);
    }
    await tx.releaseHeldRows(id, OPERATOR_HOLD_CODES, now);
  });
  if (action === 'resume') signal.notifyQueued(now); // its rows are claimable again, once committed
  return (await store.getCampaign(id)) ?? campaign;
}
