import { describe, expect, it } from 'vitest';
import type { StatusItem } from '../ports/webhook-items.js';
import { categoryFromPricing, statusEvent } from './status-event.js';

/** A status item as the webhook parser gives it, to 447700900123 unless `extra` says otherwise. */
function status(messageId: string, value: string, at = 1760000000000, extra: Partial<StatusItem> = {}): StatusItem {
  return {
    kind: 'status',
    source: { wabaId: '102290129340398', phoneNumberId: '106540352242922' },
    path: 'entry[0].changes[0].value.statuses[0]',
    messageId,
    status: value,
    at,
    recipient: { waId: '447700900123', userId: null },
    groupId: null,
    callbackData: null,
    pricing: null,
    conversation: null,
    errors: [],
    ...extra,
  };
}

const pricing = (category: string) => ({ billable: true, model: 'PMP', type: 'regular', category });
const error = (code: number) => ({ code, title: null, message: null, details: null, href: null });

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

describe('statusEvent', () => {
  it('turns each status into a status event keyed by the recipient, with id wamid:status', () => {
    const events = [
      status('wamid.1', 'sent', 1760000000000, { pricing: pricing('marketing_lite') }),
      status('wamid.1', 'failed', 1760000005000, { errors: [error(131049), error(131000)] }),
      status('wamid.2', 'played', 1760000009000, { recipient: { waId: '447700900999', userId: null } }),
    ].map(statusEvent);
    expect(events).toEqual([
      {
        contact: { waId: '447700900123', userId: null },
        event: {
          type: 'status',
          id: 'wamid.1:sent',
          at: 1760000000000,
          messageId: 'wamid.1',
          status: 'sent',
          category: 'marketing',
          errorCode: null,
        },
      },
      // A failure counts from the end of its stated second, so a cool-off never ends early.
      {
        contact: { waId: '447700900123', userId: null },
        event: {
          type: 'status',
          id: 'wamid.1:failed',
          at: 1760000005999,
          messageId: 'wamid.1',
          status: 'failed',
          category: null,
          errorCode: 131049,
        },
      },
      {
        contact: { waId: '447700900999', userId: null },
        event: {
          type: 'status',
          id: 'wamid.2:played',
          at: 1760000009000,
          messageId: 'wamid.2',
          status: 'played',
          category: null,
          errorCode: null,
        },
      },
    ]);
  });

  it('takes the error code of a failed status from its first error', () => {
    expect(statusEvent(status('wamid.1', 'failed', 1760000000000, { errors: [error(131050)] }))?.event).toMatchObject({
      status: 'failed',
      errorCode: 131050,
    });
  });

  it('keeps a status with no recipient identifiers, for the caller to resolve by message id', () => {
    const event = statusEvent(
      status('wamid.9', 'failed', 1760000000000, { recipient: { waId: null, userId: null }, errors: [error(131026)] }),
    );
    expect(event).toEqual({
      contact: { waId: null, userId: null },
      event: expect.objectContaining({ messageId: 'wamid.9', errorCode: 131026 }),
    });
  });

  it('skips status values it does not know yet', () => {
    expect(statusEvent(status('wamid.1', 'held_for_quality_assessment'))).toBeNull();
  });

  it('keys the event by the whole recipient, BSUID included', () => {
    expect(
      statusEvent(status('wamid.1', 'read', 1760000000000, { recipient: { waId: '447700900123', userId: 'GB.abc' } }))?.contact,
    ).toEqual({ waId: '447700900123', userId: 'GB.abc' });
  });
});
