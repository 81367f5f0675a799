import { resolveErrorEntry } from '../core/error-catalogue/index.js';
import type { Decision } from '../core/decision.js';
import type { NewOutboundEvent, OutboundEventType } from '../core/outbound-event.js';
import { iso, type Millis } from '../core/time.js';
import type { JsonObject, OutboxRow } from '../ports/store.js';
import type { OutboxIntent } from './outbox-intent.js';
import type { RetryMove } from './retry-move.js';

/**
 * Defers that only pace sending (a number backing off, two messages to one person a moment apart)
 * come and go many times a minute; a subscriber hears of the waits that mean something to it.
 */
const PACING_DEFERS: ReadonlySet<string> = new Set(['pair_rate', 'sender_throttled']);

/**
 * One message's event for subscribers, with what lets a caller match it to its own records: Pacer's
 * message id (the outbox row), the caller's reference, the campaign, the template and the wamid.
 */
export function messageEvent(
  type: Extract<OutboundEventType, `message.${string}`>,
  row: Pick<OutboxRow, 'id' | 'campaignId' | 'contactId' | 'category' | 'wamid'> & { clientReference?: string | null },
  intent: Pick<OutboxIntent, 'phoneNumberId' | 'template'>,
  at: Millis,
  details: JsonObject = {},
): NewOutboundEvent {
  return {
    type,
    occurredAt: at,
    contactId: row.contactId,
    campaignId: row.campaignId,
    phoneNumberId: intent.phoneNumberId,
    data: {
      messageId: row.id,
      reference: row.clientReference ?? null,
      contactId: row.contactId,
      campaignId: row.campaignId,
      category: row.category,
      template: intent.template ? { name: intent.template.name, language: intent.template.language } : null,
      wamid: row.wamid,
      from: intent.phoneNumberId,
      at: iso(at),
      ...details,
    },
  };
}

/** A code as subscribers see it: the number, the catalogue's class and name, and the operator's sentences. */
export function errorDetails(code: number | null, capCodes: readonly number[]): JsonObject | null {
  if (code === null) return null;
  const entry = resolveErrorEntry(code, capCodes);
  if (entry === undefined) return { code, class: 'unknown', title: null, meaning: null, action: null };
  return { code, class: entry.class, title: entry.name, meaning: entry.page.meaning, action: entry.page.action };
}

/** A decision that keeps the message waiting or ends it, as an event; none for a send or a pacing wait. */
export function decisionEvent(
  row: Parameters<typeof messageEvent>[1],
  intent: Parameters<typeof messageEvent>[2],
  d: Decision,
  at: Millis,
): NewOutboundEvent | null {
  switch (d.kind) {
    case 'send':
      return null;
    case 'defer':
      if (PACING_DEFERS.has(d.reason)) return null;
      return messageEvent('message.deferred', row, intent, at, { reason: d.reason, until: iso(d.until), explanation: d.explanation });
    case 'hold':
      return messageEvent('message.deferred', row, intent, at, { reason: d.reason, until: null, explanation: d.explanation });
    case 'skip':
      return messageEvent('message.skipped', row, intent, at, { reason: d.reason, explanation: d.explanation });
  }
}

/** A failed attempt: deferred when it goes again (with when and why), failed when it ends. */
export function failureEvent(
  row: Parameters<typeof messageEvent>[1],
  intent: Parameters<typeof messageEvent>[2],
  code: number | null,
  move: RetryMove,
  capCodes: readonly number[],
  at: Millis,
): NewOutboundEvent {
  const error = errorDetails(code, capCodes);
  if (move.kind === 'end') return messageEvent('message.failed', row, intent, at, { outcome: move.outcome, error });
  const held = move.input.status === 'held';
  return messageEvent('message.deferred', row, intent, at, {
    reason: held ? (move.heldFor === 'operator' ? 'held_for_operator' : 'held_for_window') : 'retry',
    until: move.input.until === null ? null : iso(move.input.until),
    explanation: held
      ? move.heldFor === 'operator'
        ? 'The attempt failed; the message waits until an operator fixes the cause and resumes.'
        : 'The attempt failed; the message waits until the contact writes in.'
      : 'The attempt failed; the message is tried again at the time given.',
    error,
  });
}
