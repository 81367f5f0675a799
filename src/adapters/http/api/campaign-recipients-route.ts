import { z } from 'zod';
import { iso } from '../../../core/time.js';
import type { CampaignRecipientRow } from '../../../ports/store.js';
import { mask } from '../../presenters/mask.js';
import type { ApiDeps } from './api-deps.js';
import { notFound } from './api-error.js';
import { lastErrorJson, lastErrorSchema, OUTBOX_OUTCOMES, OUTBOX_STATUSES, outcomeSchema, statusSchema } from './message-schemas.js';
import { route, type AnyRoute } from './route-table.js';
import { idParams, isoOrNull, isoTime, page, pageQuery, paginate } from './schemas.js';

const recipientSchema = z.object({
  messageId: z.number().int().describe('Pacer’s message id: GET /messages/{id} has its history'),
  contactId: z.number().int(),
  to: z.string().describe('the contact’s number (or business-scoped user id), masked'),
  status: statusSchema,
  outcome: outcomeSchema,
  attempts: z.number().int().describe('sends tried'),
  capAttempts: z.number().int().describe('of them, those refused by the per-user marketing cap (131049)'),
  nextAttemptAt: isoTime.nullable().describe('when a queued recipient is next due (a retry, a deferral); null otherwise'),
  lastError: lastErrorSchema.nullable(),
  latestDecision: z
    .object({
      kind: z.enum(['send', 'defer', 'hold', 'skip']),
      reason: z.string().describe('e.g. frequency_cap, marketing_cool_off, no_consent'),
      until: isoTime.nullable(),
      at: isoTime,
    })
    .nullable()
    .describe('what the dispatcher last decided about it; null before its first turn'),
  updatedAt: isoTime,
});

/** `GET /campaigns/:id/recipients`: every recipient, page by page, as stored now. */
export function campaignRecipientsRoute(deps: ApiDeps): AnyRoute {
  const { store, policy } = deps;
  const json = (r: CampaignRecipientRow): z.output<typeof recipientSchema> => ({
    messageId: r.id,
    contactId: r.contactId,
    to: mask(r.phoneE164 ?? r.waId ?? r.bsuid ?? ''),
    status: r.status,
    outcome: r.outcome,
    attempts: r.attempts,
    capAttempts: r.capAttempts,
    nextAttemptAt: r.status === 'queued' ? isoOrNull(r.nextAttemptAt) : null,
    lastError: lastErrorJson(r.lastErrorCode, policy.capCodes),
    latestDecision:
      r.latestDecision === null ? null : { ...r.latestDecision, until: isoOrNull(r.latestDecision.until), at: iso(r.latestDecision.at) },
    updatedAt: iso(r.updatedAt),
  });
  return route({
    method: 'GET',
    url: '/campaigns/:id/recipients',
    scope: 'read',
    operationId: 'listCampaignRecipients',
    tag: 'campaigns',
    summary: 'A campaign’s recipients page by page (by message id), optionally of one status or outcome',
    params: idParams,
    query: pageQuery.extend({
      status: z.enum(OUTBOX_STATUSES).optional().describe('only recipients in this status'),
      outcome: z.enum(OUTBOX_OUTCOMES).optional().describe('only recipients with this outcome'),
    }),
    responses: {
      200: { description: 'A page; `next` is the cursor for the following one', schema: page(recipientSchema) },
      404: { description: 'No such campaign' },
    },
    handler: async ({ params, query }) => {
      if ((await store.getCampaign(params.id)) === null) throw notFound(`campaign ${params.id}`);
      return paginate(
        query.limit,
        query.after,
        (afterId, limit) =>
          store.campaignRecipients({
            campaignId: params.id,
            afterId,
            limit,
            ...(query.status === undefined ? {} : { status: query.status }),
            ...(query.outcome === undefined ? {} : { outcome: query.outcome }),
          }),
        json,
      );
    },
  });
}
