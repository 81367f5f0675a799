import type { Category } from '../core/category.js';
import type { ContactEvent } from '../core/contact-event.js';
import type { ContactState } from '../core/contact-state.js';
import type { Policy } from '../core/policy.js';
import { planRetry, type AttemptHistory } from '../core/retry-plan.js';
import type { Millis } from '../core/time.js';
import type { ContactStateStore, SenderStore, TemplateStore } from '../ports/store.js';
import { retryMove, type RetryMove } from './retry-move.js';
import { applySenderAndTemplateEffects } from './send-effects.js';
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
  /** The number and template the message used: what the code's sender and template effects act on. */
  phoneNumberId: string;
  template: { name: string; language: string; category: Category } | null;
  /**
   * How long a throttled sender backs off: `until_retry` until the planned retry when the plan has a
   * time (else the base backoff), `base` always the policy's base backoff from now.
   */
  senderBackoff: 'until_retry' | 'base';
}

export interface FailureDeps {
  store: ContactStateStore & SenderStore & TemplateStore;
  policy: Policy;
  random: () => number;
}

/**
 * What a failure changes, the same wherever it was learnt: the contact's state, the retry plan, the
 * sender and template effects of its code. Returns where the row goes next and the contact's new
 * state; the caller moves the row, because only it knows whether it holds the row's lease.
 */
export async function applyFailure(
  deps: FailureDeps,
  failure: MessageFailure,
  now: Millis,
): Promise<{ move: RetryMove; state: ContactState }> {
  const { store, policy } = deps;
  const state = await applyContactEvents(store, failure.contactId, [failure.event], policy, now);
  const plan = planRetry(failure.code, failure.failedAt, failure.history, policy, deps.random());
  const baseBackoff = now + policy.senderBackoff.baseMs;
  const backoffUntil = failure.senderBackoff === 'until_retry' && plan.kind === 'retry_at' ? plan.at : baseBackoff;
  await applySenderAndTemplateEffects(
    store,
    failure.code,
    { phoneNumberId: failure.phoneNumberId, template: failure.template, backoffUntil },
    now,
  );
  return { move: retryMove(plan, now, state.marketing.coolOffUntil, failure.code, policy.blockedRecheckMs), state };
}
