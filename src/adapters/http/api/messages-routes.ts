import { createHash, randomUUID } from 'node:crypto';
import { z } from 'zod';
import { queueOneOffMessage, REFERENCE_MAX, type OneOffProblem } from '../../../app/queue-one-off-message.js';
import { parameterMappingSchema } from '../../../app/template-mapping.js';
import type { ParameterMapping, SlotSource } from '../../../core/template-slot-values.js';
import { iso } from '../../../core/time.js';
import { mask } from '../../presenters/mask.js';
import type { ApiDeps } from './api-deps.js';
import { ApiError, type Issue } from './api-error.js';
import type { IdempotencyKey } from './idempotency.js';
import { messageStatusRoute } from './message-status-route.js';
import { route, type AnyRoute } from './route-table.js';
import { categorySchema, decisionSchema } from './schemas.js';

const messageBody = z.strictObject({
  to: z.string().trim().min(1).max(40).describe('recipient phone number, international format (+ and country code)'),
  category: categorySchema,
  template: z
    .strictObject({
      name: z.string().min(1).max(512),
      language: z.string().min(2).max(15).default('en_US'),
      parameters: z
        .record(z.string().min(1).max(100), z.union([z.string().max(32768), parameterMappingSchema.valueType]))
        .optional()
        .describe(
          "the template's values by slot (`body.1`, `header`, `button.0`, or a placeholder name): a string, or {attribute, fallback?}, {value}, {link}, {mediaId}",
        ),
    })
    .optional()
    .describe('an approved template (marketing, utility, authentication); Meta-shaped `components` are not taken: give `parameters`'),
  text: z.string().min(1).max(4096).optional().describe('free-form text: service category only, inside the 24 h window'),
  idempotencyKey: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .describe(
      'the same key never queues twice (answer 200, queued false), however long after; absent: derived from the Idempotency-Key header, else generated',
    ),
  reference: z
    .string()
    .trim()
    .min(1)
    .max(REFERENCE_MAX)
    .optional()
    .describe('your own reference, e.g. an order id: kept with the message, shown by GET /messages/{id} and in events about it'),
  from: z
    .string()
    .regex(/^\d{5,20}$/, "a phone number id is Meta's digits")
    .optional()
    .describe(
      "the phone number id it goes from (one of Pacer's numbers); default: the number the contact last wrote to, else WHATSAPP_PHONE_NUMBER_ID",
    ),
});

const messageResult = z.object({
  id: z.number().int().describe("Pacer's message id: GET /messages/{id} follows it"),
  queued: z.boolean().describe('false when the idempotency key was already used: nothing was added, the answer is about that message'),
  idempotencyKey: z.string(),
  reference: z.string().nullable().describe('your reference as stored with the message (the first request’s, for a key used before)'),
  to: z.string().describe('the recipient, masked'),
  contactId: z.number().int(),
  category: categorySchema,
  decision: decisionSchema.describe('what Pacer would do with it right now; the dispatcher decides again when it comes up'),
});

const PROBLEMS: Record<OneOffProblem, Issue> = {
  template_or_text: { path: 'template', message: 'give either template or text, not both and not neither' },
  text_needs_service: {
    path: 'category',
    message: 'free-form text is a service message: use category service (it goes only inside the 24 h window)',
  },
  template_not_service: { path: 'category', message: 'templates are marketing, utility or authentication; service is for free-form text' },
  invalid_phone: { path: 'to', message: 'not a valid phone number in international format (+ and country code)' },
};

/** A string is a constant; the rest are sources as a campaign's mapping has them. */
function mappingOf(values: Record<string, string | SlotSource> | undefined): ParameterMapping {
  return Object.fromEntries(Object.entries(values ?? {}).map(([k, v]) => [k, typeof v === 'string' ? { value: v } : v]));
}

/**
 * The message's own key when only the header gave one, from the token, the key and the request:
 * the same request retried after the header's key expired, or after a process died mid-request,
 * still finds its message queued; another request under an expired key is a new message.
 */
function headerDerivedKey(k: IdempotencyKey): string {
  return `api-idem-${createHash('sha256').update(`${k.principal}\n${k.key}\n${k.fingerprint}`).digest('hex').slice(0, 40)}`;
}

/** One-off messages: queued in the outbox like `pacer send`, judged by the same decision as campaigns. */
export function messageRoutes(deps: ApiDeps): AnyRoute[] {
  return [
    route({
      method: 'POST',
      url: '/messages',
      scope: 'write',
      operationId: 'queueMessage',
      tag: 'messages',
      summary: 'Queue one message and see what Pacer would do with it now',
      body: messageBody,
      idempotent: true,
      responses: {
        202: {
          description: 'Queued; the dispatcher sends it when the decision allows. Location names the message',
          schema: messageResult,
        },
        200: { description: 'Already queued under this idempotency key; nothing added', schema: messageResult },
        503: { description: 'No sending number is configured (WHATSAPP_PHONE_NUMBER_ID)' },
      },
      handler: async ({ body, idempotency, reply }) => {
        if (body.from !== undefined && (await deps.store.getSender(body.from)) === null)
          throw new ApiError(400, 'unknown_sender', `from ${body.from} is not one of Pacer's numbers (GET /api/v1/senders lists them)`, [
            { path: 'from', message: "not one of Pacer's numbers" },
          ]);
        const from = body.from ?? deps.phoneNumberId;
        if (from === null)
          throw new ApiError(503, 'no_sender_configured', 'WHATSAPP_PHONE_NUMBER_ID is not set: this server has no number to send from');
        const key = body.idempotencyKey ?? (idempotency === null ? `api-${randomUUID()}` : headerDerivedKey(idempotency));
        const r = await queueOneOffMessage(
          deps.store,
          {
            to: body.to,
            category: body.category,
            idempotencyKey: key,
            ...(body.reference === undefined ? {} : { reference: body.reference }),
            phoneNumberId: from,
            number: body.from === undefined ? 'default' : 'named',
            ...(body.template ? { template: { ...body.template, parameters: mappingOf(body.template.parameters) } } : {}),
            ...(body.text !== undefined ? { text: body.text } : {}),
          },
          deps.policy,
          deps.clock.now(),
          deps.signal,
        );
        if (!r.ok && r.problem === 'parameters') {
          const issues = r.issues.map((i) => ({ path: `template.parameters.${i.key}`, message: i.message }));
          throw new ApiError(
            400,
            'invalid_parameters',
            `the template's values do not fit it: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`,
            issues,
          );
        }
        if (!r.ok) {
          const issue = PROBLEMS[r.problem];
          throw new ApiError(400, 'invalid_body', `the request body is not valid: ${issue.path}: ${issue.message}`, [issue]);
        }
        const d = r.decision;
        const until = 'until' in d && d.until !== null ? iso(d.until) : null;
        return reply
          .code(r.queued ? 202 : 200)
          .header('location', `${reply.request.url.split('?')[0] ?? ''}/${r.messageId}`)
          .send({
            id: r.messageId,
            queued: r.queued,
            idempotencyKey: key,
            reference: r.reference,
            to: mask(r.phoneE164),
            contactId: r.contactId,
            category: body.category,
            decision: { kind: d.kind, reason: d.reason, until, explanation: d.explanation },
          });
      },
    }),
    messageStatusRoute(deps),
  ];
}
