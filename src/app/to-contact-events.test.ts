import { describe, expect, it } from 'vitest';
import { parseWebhook } from './parse-webhook.js';
import { body, messagesChange, status, textMessage } from './test-support.js';
import { categoryFromPricing, toContactEvents } from './to-contact-events.js';

const eventsOf = (input: unknown) => {
  const parsed = parseWebhook(input);
  expect(parsed.problems).toEqual([]);
  return toContactEvents(parsed.items);
};

describe('categoryFromPricing', () => {
  it.each([
    ['marketing', 'marketing'],
    ['marketing_lite', 'marketing'],
    ['utility', 'utility'],
    ['authentication', 'authentication'],
    ['authentication_international', 'authentication'],
    ['service', 'service'],
    ['MARKETING', 'marketing'],
    ['referral_conversion', null],
    ['group_marketing', null],
    [null, null],
  ] as const)('%s → %s', (pricing, category) => {
    expect(categoryFromPricing(pricing)).toBe(category);
  });
});

describe('toContactEvents', () => {
  it('turns each status into a status event keyed by the recipient, with id wamid:status', () => {
    const events = eventsOf(body([messagesChange({
      statuses: [
        status('wamid.1', 'sent', '1760000000', { pricing: { category: 'marketing_lite' } }),
        status('wamid.1', 'failed', '1760000005', { errors: [{ code: 131049 }, { code: 131000 }] }),
        status('wamid.2', 'played', '1760000009', { recipient_id: '447700900999' }),
      ],
    })]));
    expect(events).toEqual([
      { contact: { waId: '447700900123', userId: null }, event: { type: 'status', id: 'wamid.1:sent', at: 1760000000000, messageId: 'wamid.1', status: 'sent', category: 'marketing', errorCode: null } },
      { contact: { waId: '447700900123', userId: null }, event: { type: 'status', id: 'wamid.1:failed', at: 1760000005000, messageId: 'wamid.1', status: 'failed', category: null, errorCode: 131049 } },
      { contact: { waId: '447700900999', userId: null }, event: { type: 'status', id: 'wamid.2:played', at: 1760000009000, messageId: 'wamid.2', status: 'played', category: null, errorCode: null } },
    ]);
  });

  it('takes a failed status error from the change when the status carries none', () => {
    const events = eventsOf(body([messagesChange({ statuses: [status('wamid.1', 'failed')], errors: [{ code: 131050, title: 'stopped' }] })]));
    expect(events[0]?.event).toMatchObject({ status: 'failed', errorCode: 131050 });
  });

  it('keeps a status with no recipient identifiers, for the caller to resolve by message id', () => {
    const events = eventsOf(body([messagesChange({ statuses: [{ id: 'wamid.9', status: 'failed', timestamp: '1760000000', errors: [{ code: 131026 }] }] })]));
    expect(events).toEqual([{ contact: { waId: null, userId: null }, event: expect.objectContaining({ messageId: 'wamid.9', errorCode: 131026 }) }]);
  });

  it('skips status values it does not know yet', () => {
    expect(eventsOf(body([messagesChange({ statuses: [status('wamid.1', 'held_for_quality_assessment')] })]))).toEqual([]);
  });

  it('fills the BSUID of a status recipient from the contacts of the change', () => {
    const events = eventsOf(body([messagesChange({ contacts: [{ wa_id: '447700900123', user_id: 'GB.abc' }], statuses: [status('wamid.1', 'read')] })]));
    expect(events[0]?.contact).toEqual({ waId: '447700900123', userId: 'GB.abc' });
  });

  it('turns inbound messages into inbound events by kind', () => {
    const events = eventsOf(body([messagesChange({
      contacts: [{ wa_id: '447700900123' }],
      messages: [
        textMessage('wamid.t', 'STOP'),
        { from: '447700900123', id: 'wamid.b', timestamp: '1760000101', type: 'button', button: { payload: 'STOP_PROMO', text: 'Stop promotions' } },
        { from: '447700900123', id: 'wamid.l', timestamp: '1760000102', type: 'interactive', interactive: { type: 'list_reply', list_reply: { id: 'row-2', title: 'Tuesday' } } },
        { from: '447700900123', id: 'wamid.i', timestamp: '1760000103', type: 'image', image: { id: 'm1', caption: 'stop' } },
      ],
    })]));
    expect(events.map((e) => e.event)).toEqual([
      { type: 'inbound', id: 'wamid.t', at: 1760000100000, kind: 'text', text: 'STOP', payload: null, freeEntry: false },
      { type: 'inbound', id: 'wamid.b', at: 1760000101000, kind: 'button', text: 'Stop promotions', payload: 'STOP_PROMO', freeEntry: false },
      { type: 'inbound', id: 'wamid.l', at: 1760000102000, kind: 'interactive', text: 'Tuesday', payload: 'row-2', freeEntry: false },
      { type: 'inbound', id: 'wamid.i', at: 1760000103000, kind: 'other', text: null, payload: null, freeEntry: false },
    ]);
  });

  it('marks a message that arrived from a Click-to-WhatsApp ad as a free entry', () => {
    const events = eventsOf(body([messagesChange({
      messages: [textMessage('wamid.ad', 'Hi, I saw your ad', { referral: { source_type: 'ad', source_id: '120', ctwa_clid: 'abc' } })],
    })]));
    expect(events[0]?.event).toMatchObject({ kind: 'text', freeEntry: true });
  });

  it('keys a BSUID-only sender by user_id', () => {
    const events = eventsOf(body([messagesChange({
      contacts: [{ user_id: 'US.777' }],
      messages: [{ from_user_id: 'US.777', id: 'wamid.u', timestamp: '1760000000', type: 'text', text: { body: 'hello' } }],
    })]));
    expect(events[0]?.contact).toEqual({ waId: null, userId: 'US.777' });
  });

  it('gives no event for system notices, change errors or account fields', () => {
    expect(eventsOf(body(
      [messagesChange({ messages: [{ from: '447700900123', id: 'wamid.s', timestamp: '1760000000', type: 'system', system: { type: 'user_changed_number' } }], errors: [{ code: 131000 }] })],
      [{ field: 'account_update', value: { event: 'ACCOUNT_DELETED' } }, { field: 'security', value: {} }],
    ))).toEqual([]);
  });

  it('turns stop and resume preferences into preference events, in order, and skips signups', () => {
    const events = eventsOf(body([{ field: 'user_preferences', value: {
      metadata: { phone_number_id: '1' },
      user_preferences: [
        { wa_id: '447700900123', value: 'stop', category: 'marketing_messages', timestamp: 1760000200 },
        { user_id: 'US.5', value: 'resume', category: 'marketing_messages', timestamp: '1760000300' },
        { wa_id: '447700900123', value: 'signup', signup_id: '42', timestamp: 1760000400 },
      ],
    } }]));
    expect(events).toEqual([
      { contact: { waId: '447700900123', userId: null }, event: { type: 'preference', id: expect.stringMatching(/^preference:[0-9a-f]{16}:stop:1760000200000$/), at: 1760000200000, value: 'stop' } },
      { contact: { waId: null, userId: 'US.5' }, event: { type: 'preference', id: expect.stringMatching(/^preference:[0-9a-f]{16}:resume:1760000300000$/), at: 1760000300000, value: 'resume' } },
    ]);
  });

  it('derives preference ids that are stable across redeliveries, differ between users and hide the number', () => {
    const preference = (waId: string) => body([{ field: 'user_preferences', value: {
      metadata: { phone_number_id: '1' },
      user_preferences: [{ wa_id: waId, value: 'stop', timestamp: 1760000200 }],
    } }]);
    const first = eventsOf(preference('447700900123'))[0]?.event.id;
    expect(first).toBeDefined();
    expect(eventsOf(preference('447700900123'))[0]?.event.id).toBe(first);
    expect(eventsOf(preference('447700900124'))[0]?.event.id).not.toBe(first);
    expect(first).not.toContain('447700900123');
  });
});
