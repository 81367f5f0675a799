import type { Category } from '../core/category.js';
import type { ContactEvent } from '../core/contact-event.js';
import type { ContactState } from '../core/contact-state.js';
import type { EmitEvent } from '../core/outbound-event.js';
import type { Policy } from '../core/policy.js';
import { planRetry, type AttemptHistory } from '../core/retry-plan.js';
import type { Millis } from '../core/time.js';
import type { ContactStateStore } from '../ports/store.js';
import { retryMove, type RetryMove } from './retry-move.js';
import { applyErrorEffects, type EffectsApplied, type EffectsStore } from './send-effects.js';
import { applyContactEvents } from './update-contact-state.js';

/** A message Meta failed, as learnt from the send's own answer or from a failed status webhook. */
export interface MessageFailure {
  contactId: number;
  /** The contact event that reports the failure: a send error, or a failed status. */
  event: ContactEvent;
  code: number;
  /** When the message failed: timed retries count from it. */
  failedAt: Millis;
  /** This message's failures so far, this one included. */
  history: AttemptHistory;
  /** The number, template and campaign of the message: what the code's effects act on. */
  phoneNumberId: string;
  campaignId: number | null;
  template: { name: string; language: string; category: Category } | null;
  /**
   * How long a throttled sender backs off: `until_retry` until the planned retry when the plan has a
   * time (else the base backoff), `base` always the policy's base backoff from now.
   */
  senderBackoff: 'until_retry' | 'base';
}

export interface FailureDeps {
  store: ContactStateStore & EffectsStore;
  policy: Policy;
  random: () => number;
  /** Told what a failure's effects changed (a sender stopped, campaigns paused), for the caller to log once committed. */
  onEffects?: (effects: EffectsApplied) => void;
  /** What the failure's changes tell subscribers (contact, campaigns, sender); the caller records them. */
  emit: EmitEvent;
}

/**
 * What a failure changes, the same wherever it was learnt (the send's own answer or a webhook): the
 * contact's state, the retry plan, and the sender, template and campaign effects the catalogue
 * declares for its code. Returns where the row goes next, the contact's new state and what the
 * effects changed; the caller moves the row, because only it knows whether it holds the row's lease.
 */
export async function applyFailure(
  deps: FailureDeps,
  failure: MessageFailure,
  now: Millis,
): Promise<{ move: RetryMove; state: ContactState; effects: EffectsApplied }> {
  const { store, policy } = deps;
  const state = await applyContactEvents(store, failure.contactId, [failure.event], policy, now, deps.emit);
  const plan = planRetry(failure.code, failure.failedAt, failure.history, policy, deps.random());
  const baseBackoff = now + policy.senderBackoff.baseMs;
  const backoffUntil = failure.senderBackoff === 'until_retry' && plan.kind === 'retry_at' ? plan.at : baseBackoff;
  const effects = await applyErrorEffects(
    store,
    failure.code,
    { phoneNumberId: failure.phoneNumberId, template: failure.template, campaignId: failure.campaignId, backoffUntil },
    now,
    deps.emit,
  );
  if (effects.senderStopped !== null || effects.campaignsPaused.length > 0) deps.onEffects?.(effects);
  return { move: retryMove(plan, now, state.marketing.coolOffUntil, failure.code, policy.blockedRecheckMs), state, effects };
}
