import { z } from 'zod';
import { DiagnoseInputError, parseSince, runDiagnosis } from '../../../app/diagnose.js';
import { diagnosisJson } from '../../presenters/diagnosis-json.js';
import type { ApiDeps } from './api-deps.js';
import { ApiError, notFound } from './api-error.js';
import { route, type AnyRoute } from './route-table.js';
import { isoTime } from './schemas.js';

const count = z.number().int();

const evidenceSchema = z.object({
  topic: z.enum(['scope', 'templates', 'campaigns', 'consent', 'engagement', 'volume', 'account']),
  text: z.string(),
  decisive: z.boolean().describe('the verdict rests on this observation'),
});

const usage = {
  label: z.string(),
  category: z.string(),
  messages: count,
  recipients: count,
  delivered: count,
  read: count,
  failed: count,
  capped: count,
  stopped: count.describe('recipients who stopped marketing after this template was their latest marketing message'),
  silent: count.describe('block proxy: accepted, never delivered, while the recipient received other messages'),
};
const templateSchema = z.object({ ...usage, templateId: count.nullable(), status: z.string().nullable(), quality: z.string().nullable() });
const campaignSchema = z
  .object({ ...usage, campaignId: count })
  .describe('one campaign, i.e. its segment; listed when the scope is all traffic');

const diagnosisSchema = z.object({
  verdict: z.enum(['recipient_level', 'campaign_level', 'account_level', 'insufficient_data']),
  subject: z.string().nullable().describe('the template or audience to change, or the sender; null for recipient level'),
  summary: z.string(),
  action: z.string().describe('what the operator should do'),
  evidence: z.array(evidenceSchema).describe('decisive observations first, then the rest of the investigation'),
  scope: z.object({
    campaign: z.object({ id: count, name: z.string(), template: z.string() }).nullable(),
    since: isoTime,
    until: isoTime,
  }),
  facts: z.object({
    sends: z.object({ messages: count, recipients: count, attempts: count }),
    failures: z.array(z.object({ code: count, messages: count, recipients: count })),
    failing: z.object({ recipients: count, attempts: count, repeated: count, worst: count }),
    templates: z.array(templateSchema),
    campaigns: z.array(campaignSchema),
    consent: z.object({
      recipients: count,
      granted: count,
      revoked: count,
      unknown: count,
      sources: z.array(z.object({ source: z.string(), recipients: count })),
    }),
    engagement: z.object({
      delivered: count,
      read: count,
      replied: count,
      stopped: count,
      stopKinds: z.array(z.object({ kind: z.string(), recipients: count })),
      silent: count,
    }),
    volume: z.object({ attempts: count, days: z.number(), baselineAttempts: count, baselineDays: z.number() }),
    senders: z.array(
      z.object({
        phoneNumberId: z.string(),
        quality: z.string().nullable(),
        state: z.enum(['ok', 'throttled', 'stopped']),
        reason: z.string().nullable(),
      }),
    ),
    numbers: z
      .array(z.object({ phoneNumberId: z.string(), messages: count, failed: count, topCode: z.number().int().nullable() }))
      .describe('the messages and failures per number they went from, most failures first'),
    senderEvents: z
      .array(
        z.object({
          phoneNumberId: z.string(),
          at: isoTime,
          source: z.string().describe('the signal, e.g. phone_quality FLAGGED or account_update ACCOUNT_RESTRICTION'),
          quality: z.string().nullable(),
          state: z.enum(['ok', 'throttled', 'stopped']),
          reason: z.string().nullable(),
        }),
      )
      .describe('changes of the sender numbers within the window, oldest first'),
    pauses: z.array(z.object({ campaignId: count, name: z.string(), reason: z.string() })),
  }),
});

const diagnoseQuery = z.object({
  campaign: z
    .string()
    .regex(/^\d{1,15}$/, 'a campaign id (digits)')
    .transform(Number)
    .optional()
    .describe('diagnose one campaign; default all sends in the window'),
  since: z
    .string()
    .max(40)
    .optional()
    .describe('start of the window: 7d, 36h, 90m, 2w or an ISO 8601 time (default: the campaign start, or 7d)'),
});

/** `GET /diagnose`: where failures such as 131049 come from, with the evidence and the action. */
export function diagnoseRoutes(deps: ApiDeps): AnyRoute[] {
  return [
    route({
      method: 'GET',
      url: '/diagnose',
      scope: 'read',
      operationId: 'diagnose',
      tag: 'diagnosis',
      summary:
        'Whether failures are recipient-level (normal per-user caps), campaign-level (one template or audience) or account-level, with the evidence',
      query: diagnoseQuery,
      responses: {
        200: { description: 'The verdict, its evidence, the recommended action and the facts', schema: diagnosisSchema },
        404: { description: 'No such campaign' },
      },
      handler: async ({ query }) => {
        const now = deps.clock.now();
        try {
          const since = query.since === undefined ? null : parseSince(query.since, now);
          return diagnosisJson(await runDiagnosis(deps.store, deps.policy, { campaignId: query.campaign ?? null, since, now }));
        } catch (error) {
          if (!(error instanceof DiagnoseInputError)) throw error;
          if (error.field === 'campaign') throw notFound(`campaign ${query.campaign ?? ''}`);
          throw new ApiError(400, 'invalid_query', `the request query is not valid: since: ${error.message}`, [
            { path: 'since', message: error.message },
          ]);
        }
      },
    }),
  ];
}
