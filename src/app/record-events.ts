import type { EmitEvent, NewOutboundEvent } from '../core/outbound-event.js';
import type { Millis } from '../core/time.js';
import type { Campaign, CampaignStatus, CampaignStore, OutboundEventStore, Store, TxStore } from '../ports/store.js';
import { campaignStatusEvent } from './lifecycle-events.js';

/**
 * Runs `work` in a transaction, or in the caller's when `store` is already one, and records the
 * events it emitted before that transaction commits: a change and its event are kept or lost together.
 */
export function withEvents<T>(
  store: Pick<Store, 'transaction'>,
  now: Millis,
  work: (tx: TxStore, emit: EmitEvent) => Promise<T>,
): Promise<T>;
export function withEvents<S extends OutboundEventStore, T>(
  store: S & Partial<Pick<Store, 'transaction'>>,
  now: Millis,
  work: (tx: S, emit: EmitEvent) => Promise<T>,
): Promise<T>;
export async function withEvents<T>(
  store: Partial<Pick<Store, 'transaction'>> & Partial<OutboundEventStore>,
  now: Millis,
  work: (tx: TxStore, emit: EmitEvent) => Promise<T>,
): Promise<T> {
  const run = async (tx: TxStore): Promise<T> => {
    const events: NewOutboundEvent[] = [];
    const result = await work(tx, (e) => events.push(e));
    if (events.length > 0) await tx.recordOutboundEvents(events, now);
    return result;
  };
  // A transaction's store has no `transaction` of its own (they do not nest).
  if (store.transaction !== undefined) return store.transaction((tx) => run(tx));
  return run(store as TxStore);
}

/** Moves a campaign to `to` and, when it moved, tells subscribers. */
export async function changeCampaignStatus(
  store: Pick<CampaignStore, 'setCampaignStatus'>,
  campaign: Pick<Campaign, 'id' | 'name' | 'status'>,
  to: CampaignStatus,
  reason: string | null,
  now: Millis,
  emit: EmitEvent,
): Promise<boolean> {
  if (!(await store.setCampaignStatus(campaign.id, to, reason, now))) return false;
  const event = campaignStatusEvent(campaign, campaign.status, to, reason, now);
  if (event !== null) emit(event);
  return true;
}
