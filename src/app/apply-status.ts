import { classifyCode } from '../core/error-catalogue/index.js';
import type { Policy } from '../core/policy.js';
import type { Millis } from '../core/time.js';
import type { ContactStateStore, EventLogStore, OutboxSettlementStore, SettledOutboxRow } from '../ports/store.js';
import type { StatusItem } from '../ports/webhook-items.js';
import { applyFailure, type FailureDeps } from './apply-failure.js';
import type { EffectsStore } from './send-effects.js';
import { outboxIdFromCallbackData } from './outbox-intent.js';
import { statusEvent } from './status-event.js';
import { errorDetails, failureEvent, messageEvent } from './message-events.js';
import { applyContactEvents } from './update-contact-state.js';

export interface StatusDeps {
  store: EventLogStore & OutboxSettlementStore & ContactStateStore & EffectsStore;
  policy: Policy;
  random: () => number;
  onEffects?: FailureDeps['onEffects'];
  emit: FailureDeps['emit'];
  resolveContact: (key: { waId: string | null; userId: string | null }) => Promise<number | null>;
}

/**
 * One status webhook: dedupe it, move its outbox row forward, let it speak about the recipient (even
 * for a message we did not send), and give an asynchronous failure its retry rule.
 */
export async function applyStatus(item: StatusItem, inboxId: number, deps: StatusDeps, now: Millis): Promise<void> {
  const keyed = statusEvent(item);
  if (keyed === null) return; // a status Meta added later: kept in the inbox, no effect yet
  const { store, policy } = deps;
  const { status, errorCode } = keyed.event;
  const outboxId = outboxIdFromCallbackData(item.callbackData);
  const { inserted } = await store.appendMessageEvent({ wamid: item.messageId, status, at: item.at, errorCode, inboxId, outboxId }, now);
  if (!inserted) return; // a duplicate delivery changes nothing

  const row = await store.recordDelivery({ wamid: item.messageId, outboxId }, status, errorCode, now);
  // `sent` says nothing about what the contact can receive; skipping it saves a state write per message.
  if (status === 'sent') return;
  const contactId = row?.contactId ?? (await deps.resolveContact(keyed.contact));
  if (contactId === null) return;
  // Our own row knows the category it was sent in; Meta's pricing stands in for a message we cannot match.
  const event = row === null ? keyed.event : { ...keyed.event, category: row.category };
  const intent = row === null ? null : sentFrom(row);
  if (status !== 'failed' || errorCode === null || row === null || intent === null) {
    await applyContactEvents(store, contactId, [event], policy, now, deps.emit);
    // Only Pacer's own messages are reported: a status of a message sent elsewhere has no row.
    if (row !== null && intent !== null) {
      if (status === 'delivered' || status === 'read') deps.emit(messageEvent(`message.${status}`, row, intent, item.at));
      else if (status === 'failed')
        deps.emit(
          messageEvent('message.failed', row, intent, item.at, { outcome: 'failed', error: errorDetails(errorCode, policy.capCodes) }),
        );
    }
    return;
  }

  const isCap = classifyCode(errorCode, policy.capCodes) === 'per_user_marketing_cap';
  const { move, state } = await applyFailure(
    deps,
    {
      contactId,
      event,
      code: errorCode,
      failedAt: item.at,
      // The row read back by recordDelivery already counts this attempt (recordIntent did).
      history: { failures: row.attempts, capFailures: row.capAttempts + (isCap ? 1 : 0) },
      phoneNumberId: intent.phoneNumberId,
      campaignId: row.campaignId,
      template: intent.template ? { ...intent.template, category: row.category } : null,
      // The plan counts from the status's time, not now; a throttled sender backs off from now.
      senderBackoff: 'base',
    },
    now,
  );

  deps.emit(failureEvent(row, intent, errorCode, move, policy.capCodes, item.at));
  if (move.kind === 'reschedule') {
    // Held rows wait for the contact to write in. If the message that opened the window was applied
    // first (webhooks arrive in any order), the row goes back in line now, as the wake-up would have.
    // A row held for an operator's fix waits for it whatever the window.
    const windowOpen = state.windowOpenUntil !== null && state.windowOpenUntil > now;
    await store.requeue(
      row.id,
      move.heldFor === 'window' && windowOpen ? { ...move.input, status: 'queued', until: now } : move.input,
      now,
    );
  } else if (move.outcome === 'capped_exhausted') await store.settle(row.id, 'capped_exhausted', errorCode, now);
  // A plain failure is already recorded, with its code, by recordDelivery.
}

/** What a status needs of the row's intent: the number it went from (every intent names one) and its template. */
function sentFrom(row: SettledOutboxRow): { phoneNumberId: string; template?: { name: string; language: string } } {
  const { phoneNumberId, template } = row.sentAs;
  if (phoneNumberId === null) throw new Error(`outbox row ${row.id}: bad intent: phoneNumberId missing`);
  return template === null ? { phoneNumberId } : { phoneNumberId, template };
}
