import { CATEGORIES } from './category.js';
import { marketingStop } from './contact-facts.js';
import type { ContactState } from './contact-state.js';
import type { NewOutboundEvent } from './outbound-event.js';
import { iso, type Millis } from './time.js';

/**
 * The subscriber events a change of a contact's state makes: marketing stopped or resumed (by
 * whatever signal: 131050, a preference webhook, a button, a keyword) and consent changed per
 * category. Derived from the states before and after, so every path that changes the state reports
 * alike and a duplicate event (no change) reports nothing.
 */
export function contactChangeEvents(contactId: number, before: ContactState, after: ContactState, at: Millis): NewOutboundEvent[] {
  if (before === after) return [];
  const events: NewOutboundEvent[] = [];
  const event = (type: NewOutboundEvent['type'], data: NewOutboundEvent['data']): void => {
    events.push({ type, occurredAt: at, contactId, campaignId: null, phoneNumberId: null, data: { contactId, ...data } });
  };
  const stopBefore = marketingStop(before);
  const stopAfter = marketingStop(after);
  if (stopBefore === null && stopAfter !== null) {
    event('contact.marketing_stopped', { by: stopAfter.type, detail: stopAfter.detail, at: iso(stopAfter.at) });
  } else if (stopBefore !== null && stopAfter === null) {
    const resumed = after.marketing.resumed;
    event('contact.marketing_resumed', { by: resumed?.type ?? null, detail: resumed?.detail ?? null, at: iso(resumed?.at ?? at) });
  }
  for (const category of CATEGORIES) {
    const was = before.consent[category];
    const now = after.consent[category];
    if (was.status === now.status) continue;
    event('contact.consent_changed', {
      category,
      status: now.status,
      previous: was.status,
      source: now.source,
      evidence: now.evidence,
      at: now.at === null ? iso(at) : iso(now.at),
    });
  }
  return events;
}
