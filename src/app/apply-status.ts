import type { DeliveryStatus } from '../core/contact-event.js';
import { classifyCode } from '../core/error-catalogue/index.js';
import type { Policy } from '../core/policy.js';
import { planRetry } from '../core/retry-plan.js';
import { SECOND, type Millis } from '../core/time.js';
import type { StatusItem } from '../adapters/webhook/webhook-item.js';
import { categoryFromPricing } from '../adapters/webhook/to-contact-events.js';
import type { Store } from '../ports/store.js';
import { outboxIdFromCallbackData } from './outbox-intent.js';
import { applySenderAndTemplateEffects } from './send-effects.js';
import { applyContactEvents } from './update-contact-state.js';

const DELIVERY: readonly string[] = ['sent', 'delivered', 'read', 'played', 'failed'] satisfies DeliveryStatus[];

export interface StatusDeps {
  store: Store;
  policy: Policy;
  random: () => number;
  resolveContact: (key: { waId: string | null; userId: string | null }) => Promise<number | null>;
}

/**
 * One status webhook: dedupe it, move its outbox row forward, let it speak about the recipient (even
 * for a message we did not send), and give an asynchronous failure its retry rule.
 */
export async function applyStatus(item: StatusItem, inboxId: number, deps: StatusDeps, now: Millis): Promise<void> {
  if (!DELIVERY.includes(item.status)) return; // a status Meta added later: kept in the inbox, no effect yet
  const status = item.status as DeliveryStatus;
  const { store, policy } = deps;
  const errorCode = item.errors[0]?.code ?? null;
  const outboxId = outboxIdFromCallbackData(item.callbackData);
  const { inserted } = await store.appendMessageEvent({ wamid: item.messageId, status, at: item.at, errorCode, inboxId, outboxId }, now);
  if (!inserted) return; // a duplicate delivery changes nothing

  const rowId = await store.recordDelivery({ wamid: item.messageId, outboxId }, status, errorCode, now);
  // `sent` says nothing about what the contact can receive; skipping it saves a state write per message.
  if (status === 'sent') return;
  const row = rowId === null ? null : await store.getOutbox(rowId);
  const contactId = row?.contactId ?? (await deps.resolveContact(item.recipient));
  if (contactId === null) return;

  const category = row?.category ?? categoryFromPricing(item.pricing?.category ?? null);
  // Status timestamps have whole seconds: a failure may have happened up to a second after the one
  // stated, so it counts from the end of that second and a 24 h cool-off never ends early.
  const at = status === 'failed' ? item.at + SECOND - 1 : item.at;
  const event = { type: 'status' as const, id: `${item.messageId}:${status}`, at, messageId: item.messageId, status, category: category ?? null, errorCode };
  const state = await applyContactEvents(store, contactId, [event], policy, now);
  if (status !== 'failed' || errorCode === null || row === null || rowId === null) return;

  const isCap = classifyCode(errorCode, policy.capCodes) === 'per_user_marketing_cap';
  const plan = planRetry(errorCode, item.at, { failures: row.attempts, capFailures: row.capAttempts + (isCap ? 1 : 0) }, policy, deps.random());
  const tpl = row.intent['template'];
  const template = tpl !== null && typeof tpl === 'object' && !Array.isArray(tpl) && typeof tpl['name'] === 'string' && typeof tpl['language'] === 'string' ? { name: tpl['name'], language: tpl['language'], category: row.category } : null;
  const phoneNumberId = typeof row.intent['phoneNumberId'] === 'string' ? row.intent['phoneNumberId'] : null;
  if (phoneNumberId !== null) await applySenderAndTemplateEffects(store, errorCode, { phoneNumberId, template, backoffUntil: now + policy.senderBackoff.baseMs }, now);

  switch (plan.kind) {
    case 'redecide':
      await store.requeue(rowId, { status: 'queued', until: state.marketing.coolOffUntil ?? now, capAttempt: isCap, errorCode }, now);
      return;
    case 'hold_for_window':
      await store.requeue(rowId, { status: 'held', until: null, capAttempt: false, errorCode }, now);
      return;
    case 'retry_at':
      // Jittered backoff is fractional; stored times are whole milliseconds (never earlier than planned).
      await store.requeue(rowId, { status: 'queued', until: Math.ceil(plan.at), capAttempt: false, errorCode }, now);
      return;
    case 'park':
      await store.requeue(rowId, { status: 'queued', until: now + 3_600_000, capAttempt: false, errorCode }, now);
      return;
    case 'reroute_cloud':
      await store.requeue(rowId, { status: 'queued', until: now, capAttempt: false, errorCode }, now);
      return;
    case 'give_up':
      if (plan.outcome === 'capped_exhausted') await store.settle(rowId, 'capped_exhausted', errorCode, now);
      return; // already recorded as failed with its code
  }
}
