import { z } from 'zod';
import { outboxIntentSchema } from '../../../app/outbox-intent.js';
import { iso } from '../../../core/time.js';
import type { MessageHistoryEntry, OutboxRow } from '../../../ports/store.js';
import { mask } from '../../presenters/mask.js';
import type { ApiDeps } from './api-deps.js';
import { notFound } from './api-error.js';
import { lastErrorJson, lastErrorSchema, outcomeSchema, statusSchema } from './message-schemas.js';
import { route, type AnyRoute } from './route-table.js';
import { categorySchema, idParams, isoOrNull, isoTime } from './schemas.js';

/** Entries of each kind a status read shows at most (the newest ones). */
const HISTORY_LIMIT = 100;

const historySchema = z
  .array(
    z.union([
      z.object({
        type: z.literal('decision'),
        at: isoTime,
        kind: z.enum(['send', 'defer', 'hold', 'skip']),
        reason: z.string(),
        explanation: z.string(),
        until: isoTime.nullable(),
      }),
      z.object({
        type: z.literal('status'),
        at: isoTime.describe("Meta's time for the status"),
        status: z.enum(['sent', 'delivered', 'read', 'played', 'failed']),
        error: lastErrorSchema.nullable(),
      }),
    ]),
  )
  .describe(`what was decided about it and what Meta reported, oldest first (the newest ${HISTORY_LIMIT} of each)`);

const messageSchema = z.object({
  id: z.number().int().describe("Pacer's message id"),
  reference: z.string().nullable().describe('your own reference, as given when it was queued'),
  idempotencyKey: z.string().nullable(),
  campaignId: z.number().int().nullable().describe('null for a one-off message'),
  contactId: z.number().int(),
  to: z.string().describe('the recipient, masked'),
  from: z.string().nullable().describe('the phone number id it goes from'),
  category: categorySchema,
  template: z.object({ name: z.string(), language: z.string() }).nullable().describe('null for free-form text'),
  status: statusSchema,
  outcome: outcomeSchema,
  wamid: z.string().nullable().describe("Meta's message id, once Meta accepted it"),
  attempts: z.number().int(),
  capAttempts: z.number().int().describe('sends refused by the per-user marketing cap (131049)'),
  nextAttemptAt: isoTime.nullable().describe('when a queued message is next due; null otherwise'),
  lastError: lastErrorSchema.nullable(),
  history: historySchema,
  createdAt: isoTime,
  updatedAt: isoTime,
});

function contentOf(row: OutboxRow): { from: string | null; template: { name: string; language: string } | null } {
  const intent = outboxIntentSchema.safeParse(row.intent);
  if (!intent.success) return { from: null, template: null };
  const t = intent.data.template;
  return { from: intent.data.phoneNumberId, template: t === undefined ? null : { name: t.name, language: t.language } };
}

/** `GET /messages/:id`: one message (one-off or a campaign's) as Pacer holds it now, with its history. */
export function messageStatusRoute(deps: ApiDeps): AnyRoute {
  const { store, policy } = deps;
  const entryJson = (e: MessageHistoryEntry) =>
    e.type === 'decision'
      ? { ...e, at: iso(e.at), until: isoOrNull(e.until) }
      : { type: e.type, at: iso(e.at), status: e.status, error: lastErrorJson(e.errorCode, policy.capCodes) };
  return route({
    method: 'GET',
    url: '/messages/:id',
    scope: 'read',
    operationId: 'getMessage',
    tag: 'messages',
    summary: 'One message: its status, outcome, wamid, your reference, attempts, last error and history',
    params: idParams,
    responses: {
      200: { description: 'The message', schema: messageSchema },
      404: { description: 'No message has this id' },
    },
    handler: async ({ params }) => {
      const row = await store.getOutbox(params.id);
      if (row === null) throw notFound(`message ${params.id}`);
      const [contact, history] = await Promise.all([store.getContact(row.contactId), store.messageHistory(row.id, HISTORY_LIMIT)]);
      return {
        id: row.id,
        reference: row.clientReference,
        idempotencyKey: row.idempotencyKey,
        campaignId: row.campaignId,
        contactId: row.contactId,
        to: contact === null ? '' : mask(contact.phoneE164 ?? contact.waId ?? contact.bsuid ?? ''),
        ...contentOf(row),
        category: row.category,
        status: row.status,
        outcome: row.outcome,
        wamid: row.wamid,
        attempts: row.attempts,
        capAttempts: row.capAttempts,
        nextAttemptAt: row.status === 'queued' ? iso(row.nextAttemptAt) : null,
        lastError: lastErrorJson(row.lastErrorCode, policy.capCodes),
        history: history.map(entryJson),
        createdAt: iso(row.createdAt),
        updatedAt: iso(row.updatedAt),
      };
    },
  });
}
