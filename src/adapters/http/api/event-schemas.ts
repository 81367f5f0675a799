import { z } from 'zod';
import { SUBSCRIBABLE_TYPES } from '../../../app/event-subscriptions.js';
import { OUTBOUND_EVENT_TYPES } from '../../../core/outbound-event.js';
import { isoTime } from './schemas.js';

/** Shapes of the event subscription and delivery routes (responses as the presenters write them). */

export const subscriptionSchema = z.object({
  id: z.number().int(),
  url: z.string(),
  eventTypes: z.array(z.string()).describe('event types delivered; * is every type'),
  campaignId: z.number().int().nullable().describe("only this campaign's events"),
  phoneNumberId: z.string().nullable().describe("only this number's events"),
  description: z.string().nullable(),
  enabled: z.boolean().describe('disabled: nothing is sent; what it is owed waits until it is enabled again'),
  createdAt: isoTime,
  updatedAt: isoTime,
  deliveries: z.object({
    pending: z.number().int(),
    delivered: z.number().int(),
    failed: z.number().int().describe('given up on after the last retry; replay them once the receiver is fixed'),
    oldestPendingAt: isoTime.nullable(),
  }),
});

export const createdSubscriptionSchema = subscriptionSchema.extend({
  secret: z.string().describe('the signing secret (Standard Webhooks, whsec_…): shown this once, never again'),
});

export const subscribeBody = z.strictObject({
  url: z.string().describe('where deliveries are POSTed: https (http only to loopback, or in development mode)'),
  eventTypes: z
    .array(z.enum(SUBSCRIBABLE_TYPES as [string, ...string[]]))
    .min(1)
    .max(OUTBOUND_EVENT_TYPES.length + 1)
    .describe(`any of ${SUBSCRIBABLE_TYPES.join(', ')}`),
  campaignId: z.number().int().positive().nullable().optional(),
  phoneNumberId: z.string().nullable().optional(),
  description: z.string().max(200).nullable().optional(),
  secret: z.string().optional().describe('a whsec_ secret of your own; generated when absent'),
});

export const deliverySchema = z.object({
  id: z.number().int(),
  eventId: z.number().int(),
  subscriptionId: z.number().int(),
  webhookId: z.string().describe('the webhook-id header: the same for every attempt and replay'),
  status: z.enum(['pending', 'delivered', 'failed']),
  attempts: z.number().int().describe('attempts since it was queued (a replay starts again at 0)'),
  nextAttemptAt: isoTime.nullable(),
  lastAttemptAt: isoTime.nullable(),
  lastStatusCode: z.number().int().nullable().describe('null: no answer (refused, reset, timed out)'),
  lastError: z.string().nullable(),
  deliveredAt: isoTime.nullable(),
  queuedAt: isoTime,
});

export const attemptSchema = z.object({
  at: isoTime,
  statusCode: z.number().int().nullable(),
  error: z.string().nullable(),
  durationMs: z.number().int(),
});

export const eventSchema = z.object({
  id: z.number().int(),
  type: z.string(),
  occurredAt: isoTime,
  recordedAt: isoTime,
  contactId: z.number().int().nullable(),
  campaignId: z.number().int().nullable(),
  phoneNumberId: z.string().nullable(),
  data: z.record(z.string(), z.unknown()),
});

const time = z.iso.datetime({ offset: true }).describe('ISO 8601 time');

export const replayBody = z
  .strictObject({
    eventIds: z.array(z.number().int().positive()).min(1).max(10_000).optional().describe('these events'),
    from: time.optional().describe('events that occurred at or after this time (with to)'),
    to: time.optional().describe('and before this time'),
    subscriptionId: z.number().int().positive().optional().describe("only this subscription's deliveries"),
  })
  .superRefine((b, ctx) => {
    const range = b.from !== undefined || b.to !== undefined;
    if ((b.eventIds === undefined) === !range) {
      ctx.addIssue({ code: 'custom', path: ['eventIds'], message: 'give either eventIds or a time range (from and to)' });
    } else if (range && (b.from === undefined || b.to === undefined)) {
      ctx.addIssue({ code: 'custom', path: [b.from === undefined ? 'from' : 'to'], message: 'a time range needs both from and to' });
    } else if (range && Date.parse(b.from ?? '') >= Date.parse(b.to ?? '')) {
      ctx.addIssue({ code: 'custom', path: ['to'], message: 'must be after from' });
    }
  });
