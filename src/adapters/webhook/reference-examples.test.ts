import { describe, expect, it } from 'vitest';
import { parseWebhook } from './parse-webhook.js';
import { body, messagesChange } from './test-support.js';
import { statusEvent } from '../../app/status-event.js';
import { toContactEvents } from '../../app/to-contact-events.js';
import type { WebhookItem } from '../../ports/webhook-items.js';

// The example payloads of the Cloud API reference (§2.2–2.9), each wrapped in a full body where the
// reference gives only a change or an object.

/** What the app makes of each status (applyStatus builds its event with statusEvent). */
const statusEvents = (items: readonly WebhookItem[]) => items.flatMap((item) => (item.kind === 'status' ? [statusEvent(item)] : []));

describe('reference examples', () => {
  it('§2.2 failed status with the per-user marketing cap', () => {
    const parsed = parseWebhook({
      object: 'whatsapp_business_account',
      entry: [
        {
          id: '<WABA_ID>',
          changes: [
            {
              field: 'messages',
              value: {
                messaging_product: 'whatsapp',
                metadata: { display_phone_number: '15550001111', phone_number_id: '<PNID>' },
                statuses: [
                  {
                    id: 'wamid.ABC',
                    status: 'failed',
                    timestamp: '1760000000',
                    recipient_id: '447700900123',
                    errors: [
                      {
                        code: 131049,
                        title: 'This message was not delivered to maintain healthy ecosystem engagement.',
                        message: 'This message was not delivered to maintain healthy ecosystem engagement.',
                        error_data: { details: 'In order to maintain a healthy ecosystem engagement, the message failed to be delivered.' },
                        href: '/documentation/business-messaging/whatsapp/support/error-codes',
                      },
                    ],
                  },
                ],
              },
            },
          ],
        },
      ],
    });
    expect(parsed.problems).toEqual([]);
    expect(parsed.items[0]).toMatchObject({
      kind: 'status',
      source: { wabaId: '<WABA_ID>', phoneNumberId: '<PNID>' },
      conversation: null,
      pricing: null,
      errors: [
        {
          code: 131049,
          details: 'In order to maintain a healthy ecosystem engagement, the message failed to be delivered.',
          href: '/documentation/business-messaging/whatsapp/support/error-codes',
        },
      ],
    });
    // A failure counts from the end of its stated second.
    expect(statusEvents(parsed.items)).toEqual([
      {
        contact: { waId: '447700900123', userId: null },
        event: {
          type: 'status',
          id: 'wamid.ABC:failed',
          at: 1760000000999,
          messageId: 'wamid.ABC',
          status: 'failed',
          category: null,
          errorCode: 131049,
        },
      },
    ]);
  });

  it('§2.2 delivered marketing status with per-message pricing', () => {
    const parsed = parseWebhook(
      body([
        messagesChange({
          statuses: [
            {
              id: 'wamid.ABC',
              status: 'delivered',
              timestamp: '1760000050',
              recipient_id: '447700900123',
              pricing: { billable: true, pricing_model: 'PMP', type: 'regular', category: 'marketing' },
            },
          ],
        }),
      ]),
    );
    expect(parsed.problems).toEqual([]);
    expect(parsed.items[0]).toMatchObject({ pricing: { billable: true, model: 'PMP', type: 'regular', category: 'marketing' } });
    expect(statusEvents(parsed.items)[0]?.event).toMatchObject({ status: 'delivered', category: 'marketing', errorCode: null });
  });

  it('§2.3 "Stop promotions" quick-reply tap', () => {
    const parsed = parseWebhook(
      body([
        messagesChange({
          contacts: [{ wa_id: '447700900123' }],
          messages: [
            {
              from: '447700900123',
              id: 'wamid.IN1',
              timestamp: '1760000100',
              type: 'button',
              context: { from: '15550001111', id: 'wamid.ABC' },
              button: { payload: 'STOP_PROMO', text: 'Stop promotions' },
            },
          ],
        }),
      ]),
    );
    expect(parsed.problems).toEqual([]);
    expect(parsed.items[0]).toMatchObject({ kind: 'inbound', context: { from: '15550001111', messageId: 'wamid.ABC', forwarded: false } });
    expect(toContactEvents(parsed.items)).toEqual([
      {
        contact: { waId: '447700900123', userId: null },
        event: {
          type: 'inbound',
          id: 'wamid.IN1',
          at: 1760000100000,
          kind: 'button',
          text: 'Stop promotions',
          payload: 'STOP_PROMO',
          freeEntry: false,
        },
      },
    ]);
  });

  it('§2.4 user_preferences stop', () => {
    const parsed = parseWebhook(
      body([
        {
          field: 'user_preferences',
          value: {
            messaging_product: 'whatsapp',
            metadata: { display_phone_number: '15550001111', phone_number_id: '<PNID>' },
            contacts: [{ wa_id: '447700900123' }],
            user_preferences: [
              {
                wa_id: '447700900123',
                detail: 'User requested to stop marketing messages',
                category: 'marketing_messages',
                value: 'stop',
                timestamp: 1760000200,
              },
            ],
          },
        },
      ]),
    );
    expect(parsed.problems).toEqual([]);
    expect(parsed.items[0]).toMatchObject({
      kind: 'user_preference',
      category: 'marketing_messages',
      detail: 'User requested to stop marketing messages',
    });
    expect(toContactEvents(parsed.items)).toEqual([
      {
        contact: { waId: '447700900123', userId: null },
        event: {
          type: 'preference',
          id: expect.stringMatching(/^preference:[0-9a-f]{16}:stop:1760000200000$/),
          at: 1760000200000,
          value: 'stop',
        },
      },
    ]);
  });

  it('§2.5 phone_number_quality_update', () => {
    const parsed = parseWebhook(
      body([
        {
          field: 'phone_number_quality_update',
          value: {
            display_phone_number: '15550001111',
            event: 'THROUGHPUT_UPGRADE',
            max_daily_conversations_per_business: 'TIER_UNLIMITED',
          },
        },
      ]),
    );
    expect(parsed.problems).toEqual([]);
    expect(parsed.items[0]).toMatchObject({
      kind: 'phone_quality',
      displayPhoneNumber: '15550001111',
      event: 'THROUGHPUT_UPGRADE',
      maxDailyConversations: 'TIER_UNLIMITED',
      currentLimit: null,
    });
  });

  it('§2.5 older phone quality events stay open strings', () => {
    const parsed = parseWebhook(
      body([
        {
          field: 'phone_number_quality_update',
          value: { display_phone_number: '15550001111', event: 'DOWNGRADE', current_limit: 'TIER_1K', old_limit: 'TIER_10K' },
        },
      ]),
    );
    expect(parsed.problems).toEqual([]);
    expect(parsed.items[0]).toMatchObject({ event: 'DOWNGRADE', currentLimit: 'TIER_1K', oldLimit: 'TIER_10K' });
  });

  it('§2.6 message_template_status_update paused', () => {
    const parsed = parseWebhook(
      body([
        {
          field: 'message_template_status_update',
          value: {
            event: 'PAUSED',
            message_template_id: 123,
            message_template_name: 'spring_sale',
            message_template_language: 'en_US',
            reason: 'NONE',
            message_template_category: 'MARKETING',
            other_info: { title: 'FIRST_PAUSE', description: '…' },
          },
        },
      ]),
    );
    expect(parsed.problems).toEqual([]);
    expect(parsed.items[0]).toMatchObject({
      kind: 'template_status',
      templateId: '123',
      name: 'spring_sale',
      language: 'en_US',
      event: 'PAUSED',
      reason: 'NONE',
      category: 'MARKETING',
      otherInfo: { title: 'FIRST_PAUSE', description: '…' },
    });
  });

  it('§2.6 a null reason is accepted', () => {
    const parsed = parseWebhook(
      body([{ field: 'message_template_status_update', value: { event: 'APPROVED', message_template_id: 9, reason: null } }]),
    );
    expect(parsed.problems).toEqual([]);
    expect(parsed.items[0]).toMatchObject({ reason: null, name: null });
  });

  it('§2.7 message_template_quality_update', () => {
    const parsed = parseWebhook(
      body([
        {
          field: 'message_template_quality_update',
          value: {
            previous_quality_score: 'GREEN',
            new_quality_score: 'YELLOW',
            message_template_id: 123,
            message_template_name: 'spring_sale',
            message_template_language: 'en_US',
          },
        },
      ]),
    );
    expect(parsed.problems).toEqual([]);
    expect(parsed.items[0]).toMatchObject({
      kind: 'template_quality',
      templateId: '123',
      name: 'spring_sale',
      language: 'en_US',
      previousScore: 'GREEN',
      newScore: 'YELLOW',
    });
  });

  it('§2.8 template_category_update, completed change', () => {
    const parsed = parseWebhook(
      body([
        {
          field: 'template_category_update',
          value: {
            message_template_id: 123,
            message_template_name: 'order_update',
            message_template_language: 'en_US',
            previous_category: 'UTILITY',
            new_category: 'MARKETING',
          },
        },
      ]),
    );
    expect(parsed.problems).toEqual([]);
    expect(parsed.items[0]).toMatchObject({
      kind: 'template_category',
      name: 'order_update',
      previousCategory: 'UTILITY',
      newCategory: 'MARKETING',
      correctCategory: null,
    });
  });

  it('§2.8 template_category_update, 24-hour notice', () => {
    const parsed = parseWebhook(
      body([
        {
          field: 'template_category_update',
          value: {
            message_template_id: 123,
            message_template_name: 'order_update',
            message_template_language: 'en_US',
            new_category: 'UTILITY',
            correct_category: 'MARKETING',
            category_update_timestamp: 1760086400,
          },
        },
      ]),
    );
    expect(parsed.problems).toEqual([]);
    expect(parsed.items[0]).toMatchObject({ newCategory: 'UTILITY', correctCategory: 'MARKETING', effectiveAt: 1760086400000 });
  });

  it('§2.9 account_update restriction', () => {
    const parsed = parseWebhook(
      body([
        {
          field: 'account_update',
          value: {
            event: 'ACCOUNT_RESTRICTION',
            restriction_info: [{ restriction_type: 'RESTRICTED_BIZ_INITIATED_MESSAGING', expiration: 1760086400 }],
          },
        },
      ]),
    );
    expect(parsed.problems).toEqual([]);
    expect(parsed.items[0]).toMatchObject({
      kind: 'account_update',
      event: 'ACCOUNT_RESTRICTION',
      restrictions: [{ type: 'RESTRICTED_BIZ_INITIATED_MESSAGING', expiresAt: 1760086400000, remediation: null }],
    });
  });

  it('business_capability_update carries the portfolio limit', () => {
    const parsed = parseWebhook(
      body([
        { field: 'business_capability_update', value: { max_daily_conversations_per_business: 2000, max_phone_numbers_per_business: 20 } },
      ]),
    );
    expect(parsed.problems).toEqual([]);
    expect(parsed.items[0]).toMatchObject({
      kind: 'business_capability',
      maxDailyConversations: '2000',
      maxPhoneNumbers: '20',
      maxDailyConversationsPerPhone: null,
    });
  });

  it('a messages change with nothing in it yields nothing and no problem', () => {
    expect(parseWebhook(body([messagesChange({})]))).toEqual({ items: [], problems: [] });
  });
});
