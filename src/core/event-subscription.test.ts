import { describe, expect, it } from 'vitest';
import { deliveryLane, matchesFilter, type EventFilter } from './event-subscription.js';

const ALL: EventFilter = { eventTypes: ['*'], campaignId: null, phoneNumberId: null };
const event = { type: 'message.delivered' as const, campaignId: 7, phoneNumberId: '1001' };

describe('matchesFilter', () => {
  it('takes every type with *, and only the listed types otherwise', () => {
    expect(matchesFilter(ALL, event)).toBe(true);
    expect(matchesFilter({ ...ALL, eventTypes: ['message.delivered', 'message.read'] }, event)).toBe(true);
    expect(matchesFilter({ ...ALL, eventTypes: ['message.read'] }, event)).toBe(false);
    expect(matchesFilter({ ...ALL, eventTypes: [] }, event)).toBe(false);
  });

  it('keeps to the campaign and the number it names', () => {
    expect(matchesFilter({ ...ALL, campaignId: 7 }, event)).toBe(true);
    expect(matchesFilter({ ...ALL, campaignId: 8 }, event)).toBe(false);
    expect(matchesFilter({ ...ALL, campaignId: 7 }, { ...event, campaignId: null })).toBe(false);
    expect(matchesFilter({ ...ALL, phoneNumberId: '1001' }, event)).toBe(true);
    expect(matchesFilter({ ...ALL, phoneNumberId: '1002' }, event)).toBe(false);
    expect(matchesFilter({ ...ALL, phoneNumberId: '1001', campaignId: 8 }, event)).toBe(false);
  });
});

describe('deliveryLane', () => {
  it('is the contact, or 0 for events of no contact', () => {
    expect(deliveryLane({ contactId: 42 })).toBe(42);
    expect(deliveryLane({ contactId: null })).toBe(0);
  });
});
