import type { DeliveryStatus } from '../core/contact-event.js';
import { classifyCode } from '../core/error-catalogue/index.js';
import type { Policy } from '../core/policy.js';
import { planRetry } from '../core/retry-plan.js';
import { SECOND, type Millis } from '../core/time.js';
import type { StatusItem } from '../adapters/webhook/webhook-item.js';
import { categoryFromPricing } from '../adapters/webhook/to-contact-events.js';
import type { ContactStateStore, EventLogStore, OutboxSettlementStore, SenderStore, TemplateStore } from '../ports/store.js';
import { outboxIdFromCallbackData, parseOutboxIntent } from './outbox-intent.js';
import { retryMove } from './retry-move.js';
import { applySenderAndTemplateEffects } from './send-effects.js';
import { applyContactEvents } from './update-contact-state.js';

const DELIVERY: readonly string[] = ['sent', 'delivered', 'read', 'played', 'failed'] satisfies DeliveryStatus[];

export interface StatusDeps {
  store: EventLogStore & OutboxSettlementStore & ContactStateStore & SenderStore & TemplateStore;
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

  const row = await store.recordDelivery({ wamid: item.messageId, outboxId }, status, errorCode, now);
  // `sent` says nothing about what the contact can receive; skipping it saves a state write per message.
  if (status === 'sent') return;
  const contactId = row?.contactId ?? (await deps.resolveContact(item.recipient));
  if (contactId === null) return;

  const category = row?.category ?? categoryFromPricing(item.pricing?.category ?? null);
  // Status timestamps have whole seconds: a failure may have happened up to a second after the one
  // stated, so it counts from the end of that second and a 24 h cool-off never ends early.
  const at = status === 'failed' ? item.at + SECOND - 1 : item.at;
  const event = { type: 'status' as const, id: `${item.messageId}:${status}`, at, messageId: item.messageId, status, category: category ?? null, errorCode };
  const state = await applyContactEvents(store, contactId, [event], policy, now);
  if (status !== 'failed' || errorCode === null || row === null) return;

  const isCap = classifyCode(errorCode, policy.capCodes) === 'per_user_marketing_cap';
  const plan = planRetry(errorCode, item.at, { failures: row.attempts, capFailures: row.capAttempts + (isCap ? 1 : 0) }, policy, deps.random());
  const intent = parseOutboxIntent(row.intent, row.id);
  const template = intent.template ? { name: intent.template.name, language: intent.template.language, category: row.category } : null;
  await applySenderAndTemplateEffects(store, errorCode, { phoneNumberId: intent.phoneNumberId, template, backoffUntil: now + policy.senderBackoff.baseMs }, now);

  const move = retryMove(plan, now, state.marketing.coolOffUntil, errorCode);
  if (move.kind === 'reschedule') {
    // Held rows wait for the contact to write in. If the message that opened the window was applied
    // first (webhooks arrive in any order), the row goes back in line now, as the wake-up would have.
    const windowOpen = state.windowOpenUntil !== null && state.windowOpenUntil > now;
    await store.requeue(row.id, move.input.status === 'held' && windowOpen ? { ...move.input, status: 'queued', until: now } : move.input, now);
  }
  else if (move.outcome === 'capped_exhausted') await store.settle(row.id, 'capped_exhausted', errorCode, now);
  // A plain failure is already recorded, with its code, by recordDelivery.
}
