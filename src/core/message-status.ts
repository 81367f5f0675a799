import type { DeliveryStatus } from './contact-event.js';
import type { Millis } from './time.js';

export type MessageStatus = 'pending' | 'accepted' | DeliveryStatus;

export interface StatusPoint {
  status: MessageStatus;
  at: Millis;
}

const RANK: Record<MessageStatus, number> = { pending: 0, accepted: 1, sent: 2, delivered: 3, read: 4, played: 5, failed: 6 };

/**
 * A message's status only moves forward: pending < accepted < sent < delivered < read < played.
 * `delivered` may be skipped; duplicates and late, older statuses change nothing. `failed` is
 * terminal and may follow `sent`, but never overrides proof of delivery.
 */
export function advanceStatus(current: StatusPoint, incoming: StatusPoint): StatusPoint {
  if (current.status === 'failed') return current;
  if (incoming.status === 'failed') {
    return RANK[current.status] >= RANK.delivered ? current : incoming;
  }
  return RANK[incoming.status] > RANK[current.status] ? incoming : current;
}

export function isFinalStatus(status: MessageStatus): boolean {
  return status === 'read' || status === 'played' || status === 'failed';
}
