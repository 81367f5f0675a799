import { CATEGORIES, type Category } from './category.js';
import type { Cause, ContactState } from './contact-state.js';
import { decide } from './decide.js';
import type { Decision, SendIntent } from './decision.js';
import type { Policy } from './policy.js';
import type { Millis } from './time.js';

export interface CategoryExplanation {
  category: Category;
  decision: Decision;
  /** The recorded events behind the facts this category's decision reads, oldest first. */
  causes: Cause[];
}

/**
 * Would Pacer send to this contact now, per category, and why not. It asks the real `decide` with
 * a plain approved template (a free-form text for `service`), so the answer is the dispatcher's own.
 */
export function explainContact(
  state: ContactState,
  now: Millis,
  policy: Policy,
  recipientRegion: string | null,
  addressedBy: SendIntent['addressedBy'] = 'phone',
  /** The recipient's local-time limits per category (quiet hours); absent: none. */
  timingFor: (category: Category) => SendIntent['timing'] = () => null,
): CategoryExplanation[] {
  return CATEGORIES.map((category) => {
    const intent: SendIntent = {
      category,
      kind: category === 'service' ? 'freeform' : 'template',
      recipientRegion,
      addressedBy,
      template: category === 'service' ? null : { status: 'approved', pausedUntil: null },
      sender: { state: 'ok' },
      capAttempts: 0,
      marketingApiRefused: false,
      timing: timingFor(category),
    };
    return { category, decision: decide(state, intent, now, policy), causes: causesFor(state, category) };
  });
}

function causesFor(state: ContactState, category: Category): Cause[] {
  const consent = state.consent[category];
  const consentCause: Cause | null =
    consent.at === null
      ? null
      : {
          eventId: consent.source ?? 'consent',
          type: 'consent',
          at: consent.at,
          detail: `${consent.status}${consent.source ? ` via ${consent.source}` : ''}`,
        };
  const m = state.marketing;
  const marketingOnly = category === 'marketing' ? [m.lastCap, m.experiment, m.stopped, m.resumed] : [];
  return [consentCause, state.unreachable, ...marketingOnly].filter((c): c is Cause => c !== null).sort((a, b) => a.at - b.at);
}
