import type { Category } from './category.js';
import type { ContactEvent } from './contact-event.js';
import { SEEN_LIMIT, RECENT_SENDS_LIMIT, type Cause, type ContactState, type MarketingFacts } from './contact-state.js';
import { classifyCode } from './error-catalogue/index.js';
import { assertNever } from './error-class.js';
import { matchesAny } from './keyword.js';
import { STOP_PROMOTIONS_PAYLOAD } from './template-slot-values.js';
import type { Policy } from './policy.js';
import type { Millis } from './time.js';

/**
 * Applies one event to a contact's state. Pure; a duplicate event (same id) is a no-op; facts are
 * ordered by the events' own timestamps, so stop/resume, consent and windows do not depend on the
 * order webhooks arrive in.
 */
export function reduceContact(state: ContactState, event: ContactEvent, policy: Policy): ContactState {
  if (state.seen.includes(event.id)) return state;
  const next = applyEvent(state, event, policy);
  const seen = [...state.seen, event.id];
  return { ...next, seen: seen.length > SEEN_LIMIT ? seen.slice(seen.length - SEEN_LIMIT) : seen };
}

function applyEvent(state: ContactState, event: ContactEvent, policy: Policy): ContactState {
  switch (event.type) {
    case 'status':
      if (event.status === 'failed') {
        const unsent = forgetSend(state, event.messageId);
        return event.errorCode === null ? unsent : applyFailure(unsent, event, event.errorCode, policy);
      }
      if (event.status === 'sent') return state;
      return applyReached(state, event.at, event.category, event.status === 'read' || event.status === 'played');
    case 'send_error':
      return applyFailure(state, event, event.errorCode, policy);
    case 'send_accepted':
      return event.category === 'marketing'
        ? applyMarketingSent(state, event.messageId, event.at, event.path === 'marketing_messages')
        : state;
    case 'inbound':
      return applyInbound(state, event, policy);
    case 'preference':
      return event.value === 'stop'
        ? setStopped(state, cause(event, 'user_preferences:stop'))
        : setResumed(state, cause(event, 'user_preferences:resume'));
    case 'consent': {
      const current = state.consent[event.category];
      if (current.at !== null && current.at > event.at) return state;
      const fact = { status: event.status, at: event.at, source: event.source, evidence: event.evidence };
      return { ...state, consent: { ...state.consent, [event.category]: fact } };
    }
    default:
      return assertNever(event, 'contact event');
  }
}

function cause(event: ContactEvent, detail: string | null): Cause {
  return { eventId: event.id, type: event.type, at: event.at, detail };
}

function later(current: Cause | null, candidate: Cause): Cause {
  return current !== null && current.at >= candidate.at ? current : candidate;
}

function maxTime(a: Millis | null, b: Millis): Millis {
  return a === null || b > a ? b : a;
}

function withMarketing(state: ContactState, patch: Partial<MarketingFacts>): ContactState {
  return { ...state, marketing: { ...state.marketing, ...patch } };
}

function applyFailure(state: ContactState, event: ContactEvent, code: number, policy: Policy): ContactState {
  const cls = classifyCode(code, policy.capCodes);
  const why = cause(event, String(code));
  switch (cls) {
    case 'per_user_marketing_cap': {
      const m = state.marketing;
      const consecutiveCaps = m.consecutiveCaps + 1;
      const gaps = policy.capRetry.gapsMs;
      const gap = gaps[Math.min(consecutiveCaps, gaps.length) - 1] ?? 0;
      return withMarketing(state, {
        consecutiveCaps,
        coolOffUntil: maxTime(m.coolOffUntil, event.at + gap),
        lastCap: later(m.lastCap, why),
        marketingApiTriedAfterCap: false,
      });
    }
    case 'experiment_hold':
      return withMarketing(state, { experiment: later(state.marketing.experiment, why) });
    case 'user_stopped_marketing':
      return setStopped(state, why);
    case 'recipient_undeliverable':
      return { ...state, unreachable: later(state.unreachable, why) };
    case 'window_closed':
    case 'throughput_limit':
    case 'pair_rate_limit':
    case 'api_rate_limit':
    case 'transient_server':
    case 'template_problem':
    case 'marketing_api_refused':
    case 'recipient_not_allowed':
    case 'account_problem':
    case 'auth_permission':
    case 'bad_request':
    case 'unknown':
      return state; // about the message, template or sender, not about what this contact can receive
    default:
      return assertNever(cls, 'error class');
  }
}

function applyReached(state: ContactState, at: Millis, category: Category | null, read: boolean): ContactState {
  let next: ContactState = { ...state, lastReachedAt: maxTime(state.lastReachedAt, at) };
  if (category !== null) {
    const e = state.engagement[category];
    const engagement = read
      ? { lastDeliveredAt: maxTime(e.lastDeliveredAt, at), lastReadAt: maxTime(e.lastReadAt, at) }
      : { ...e, lastDeliveredAt: maxTime(e.lastDeliveredAt, at) };
    next = { ...next, engagement: { ...state.engagement, [category]: engagement } };
  }
  const lastCap = state.marketing.lastCap;
  if (category === 'marketing' && lastCap !== null && at > lastCap.at && state.marketing.consecutiveCaps > 0) {
    // Delivered after the cap: the cap has lifted, so gaps start small again. The cool-off time stays.
    next = withMarketing(next, { consecutiveCaps: 0 });
  }
  return next;
}

function applyMarketingSent(state: ContactState, messageId: string, at: Millis, viaMarketingApi: boolean): ContactState {
  const sends = [...state.marketing.recentSends, { messageId, at }].sort((a, b) => a.at - b.at);
  const recentSends = sends.length > RECENT_SENDS_LIMIT ? sends.slice(sends.length - RECENT_SENDS_LIMIT) : sends;
  const afterCap = viaMarketingApi && state.marketing.lastCap !== null && at >= state.marketing.lastCap.at;
  return withMarketing(state, { recentSends, marketingApiTriedAfterCap: state.marketing.marketingApiTriedAfterCap || afterCap });
}

/** A marketing send that failed never reached the contact: it stops counting toward our own cap. */
function forgetSend(state: ContactState, messageId: string): ContactState {
  const sends = state.marketing.recentSends;
  return sends.some((s) => s.messageId === messageId)
    ? withMarketing(state, { recentSends: sends.filter((s) => s.messageId !== messageId) })
    : state;
}

function applyInbound(state: ContactState, event: Extract<ContactEvent, { type: 'inbound' }>, policy: Policy): ContactState {
  let next: ContactState = {
    ...state,
    lastInboundAt: maxTime(state.lastInboundAt, event.at),
    lastReachedAt: maxTime(state.lastReachedAt, event.at),
    windowOpenUntil: maxTime(state.windowOpenUntil, event.at + policy.customerServiceWindowMs),
    freeEntryUntil: event.freeEntry ? maxTime(state.freeEntryUntil, event.at + policy.freeEntryWindowMs) : state.freeEntryUntil,
  };
  const isButton = event.kind === 'button' || event.kind === 'interactive';
  const stopWords = isButton ? [...policy.stopButtons, ...policy.stopKeywords] : [];
  // Pacer's own stop payload counts whatever the configured words are now: it was sent for a stop button.
  if (isButton && (matchesAny(event.text, stopWords) || matchesAny(event.payload, [...stopWords, STOP_PROMOTIONS_PAYLOAD]))) {
    next = setStopped(next, cause(event, `button:${event.payload ?? event.text ?? ''}`));
  } else if (event.kind === 'text' && matchesAny(event.text, policy.stopKeywords)) {
    next = setStopped(next, cause(event, `keyword:${event.text ?? ''}`));
  } else if (event.kind === 'text' && matchesAny(event.text, policy.resumeKeywords)) {
    next = setResumed(next, cause(event, `keyword:${event.text ?? ''}`));
  }
  return next;
}

function setStopped(state: ContactState, why: Cause): ContactState {
  return withMarketing(state, { stopped: later(state.marketing.stopped, why) });
}

function setResumed(state: ContactState, why: Cause): ContactState {
  return withMarketing(state, { resumed: later(state.marketing.resumed, why) });
}
