import { describe, expect, it } from 'vitest';
import type { InboundItem, UserPreferenceItem, WebhookItem, WebhookSource } from '../ports/webhook-items.js';
import { toContactEvents } from './to-contact-events.js';

// Items as the webhook parser gives them; parsing real payloads into these is the parser's test.

const source: WebhookSource = { wabaId: '102290129340398', phoneNumberId: '106540352242922' };
const path = 'entry[0].changes[0].value.messages[0]';

function inbound(messageId: string, type: string, extra: Partial<InboundItem> = {}): InboundItem {
  return {
    kind: 'inbound',
    source,
    path,
    messageId,
    at: 1760000100000,
    type,
    from: { waId: '447700900123', userId: null },
    text: null,
    button: null,
    interactive: null,
    media: null,
    referral: null,
    context: null,
    system: null,
    errors: [],
    ...extra,
  };
}

function preference(
  contact: UserPreferenceItem['contact'],
  value: string,
  at: number,
  extra: Partial<UserPreferenceItem> = {},
): UserPreferenceItem {
  return {
    kind: 'user_preference',
    source,
    path: 'entry[0].changes[0].value.user_preferences[0]',
    contact,
    value,
    category: 'marketing_messages',
    detail: null,
    at,
    signupId: null,
    ...extra,
  };
}

describe('toContactEvents', () => {
  it('turns inbound messages into inbound events by kind', () => {
    const events = toContactEvents([
      inbound('wamid.t', 'text', { text: 'STOP' }),
      inbound('wamid.b', 'button', { at: 1760000101000, button: { payload: 'STOP_PROMO', text: 'Stop promotions' } }),
      inbound('wamid.l', 'interactive', {
        at: 1760000102000,
        interactive: { type: 'list_reply', id: 'row-2', title: 'Tuesday', description: null },
      }),
      inbound('wamid.i', 'image', { at: 1760000103000, media: { type: 'image', id: 'm1', mimeType: null, caption: 'stop' } }),
    ]);
    expect(events.map((e) => e.event)).toEqual([
      { type: 'inbound', id: 'wamid.t', at: 1760000100000, kind: 'text', text: 'STOP', payload: null, freeEntry: false },
      {
        type: 'inbound',
        id: 'wamid.b',
        at: 1760000101000,
        kind: 'button',
        text: 'Stop promotions',
        payload: 'STOP_PROMO',
        freeEntry: false,
      },
      { type: 'inbound', id: 'wamid.l', at: 1760000102000, kind: 'interactive', text: 'Tuesday', payload: 'row-2', freeEntry: false },
      { type: 'inbound', id: 'wamid.i', at: 1760000103000, kind: 'other', text: null, payload: null, freeEntry: false },
    ]);
  });

  it('marks a message that arrived from a Click-to-WhatsApp ad as a free entry', () => {
    const events = toContactEvents([
      inbound('wamid.ad', 'text', {
        text: 'Hi, I saw your ad',
        referral: { sourceType: 'ad', sourceId: '120', sourceUrl: null, ctwaClid: 'abc' },
      }),
    ]);
    expect(events[0]?.event).toMatchObject({ kind: 'text', freeEntry: true });
  });

  it('keys a BSUID-only sender by user_id', () => {
    const events = toContactEvents([inbound('wamid.u', 'text', { from: { waId: null, userId: 'US.777' }, text: 'hello' })]);
    expect(events[0]?.contact).toEqual({ waId: null, userId: 'US.777' });
  });

  it('gives no event for system notices, change errors or account fields', () => {
    const items: WebhookItem[] = [
      inbound('wamid.s', 'system', { system: { type: 'user_changed_number', body: null, newWaId: null, newUserId: null } }),
      {
        kind: 'change_error',
        source,
        path: 'entry[0].changes[0].value.errors[0]',
        error: { code: 131000, title: null, message: null, details: null, href: null },
      },
      {
        kind: 'account_update',
        source: { wabaId: source.wabaId, phoneNumberId: null },
        path: 'entry[1].changes[0]',
        at: null,
        event: 'ACCOUNT_DELETED',
        restrictions: [],
        violationType: null,
        banState: null,
        banDate: null,
        details: {},
      },
      { kind: 'ignored', source: { wabaId: source.wabaId, phoneNumberId: null }, path: 'entry[1].changes[1]', field: 'security', at: null },
    ];
    expect(toContactEvents(items)).toEqual([]);
  });

  it('leaves statuses to applyStatus, which matches them to their outbox row first', () => {
    expect(
      toContactEvents([
        {
          kind: 'status',
          source,
          path: 'entry[0].changes[0].value.statuses[0]',
          messageId: 'wamid.1',
          status: 'read',
          at: 1760000000000,
          recipient: { waId: '447700900123', userId: null },
          groupId: null,
          callbackData: null,
          pricing: null,
          conversation: null,
          errors: [],
        },
      ]),
    ).toEqual([]);
  });

  it('turns stop and resume preferences into preference events, in order, and skips signups', () => {
    const events = toContactEvents([
      preference({ waId: '447700900123', userId: null }, 'stop', 1760000200000),
      preference({ waId: null, userId: 'US.5' }, 'resume', 1760000300000),
      preference({ waId: '447700900123', userId: null }, 'signup', 1760000400000, { category: null, signupId: '42' }),
    ]);
    expect(events).toEqual([
      {
        contact: { waId: '447700900123', userId: null },
        event: {
          type: 'preference',
          id: expect.stringMatching(/^preference:[0-9a-f]{16}:stop:1760000200000$/),
          at: 1760000200000,
          value: 'stop',
        },
      },
      {
        contact: { waId: null, userId: 'US.5' },
        event: {
          type: 'preference',
          id: expect.stringMatching(/^preference:[0-9a-f]{16}:resume:1760000300000$/),
          at: 1760000300000,
          value: 'resume',
        },
      },
    ]);
  });

  it('derives preference ids that are stable across redeliveries, differ between users and hide the number', () => {
    const stop = (waId: string) => toContactEvents([preference({ waId, userId: null }, 'stop', 1760000200000, { category: null })]);
    const first = stop('447700900123')[0]?.event.id;
    expect(first).toBeDefined();
    expect(stop('447700900123')[0]?.event.id).toBe(first);
    expect(stop('447700900124')[0]?.event.id).not.toBe(first);
    expect(first).not.toContain('447700900123');
  });
});
