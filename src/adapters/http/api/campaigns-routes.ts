import { z } from 'zod';
import { campaignAction, CampaignActionError } from '../../../app/campaign-actions.js';
import { campaignOutcomes, frequencyCapInEffect } from '../../../app/campaign-outcomes.js';
import { outcomesJson } from '../../presenters/outcomes-json.js';
import { campaignPace } from '../../../app/campaign-pace.js';
import { campaignNumbers } from '../../../app/sender-overview.js';
import { campaignNumbersJson } from '../../presenters/sender-json.js';
import { iso } from '../../../core/time.js';
import type { Campaign, CampaignCounters } from '../../../ports/store.js';
import { parameterMappingSchema, readMapping } from '../../../app/template-mapping.js';
import type { ApiDeps } from './api-deps.js';
import { campaignPreviewRoute } from './campaign-preview-route.js';
import { ApiError, notFound } from './api-error.js';
import { route, type AnyRoute } from './route-table.js';
import { sendingSchema } from './senders-routes.js';
import { idParams, isoOrNull, isoTime } from './schemas.js';

const STATUSES = ['draft', 'scheduled', 'running', 'paused', 'completed', 'cancelled'] as const;

const frequencyCapSchema = z.object({
  max: z.number().int().describe('marketing messages per contact at most'),
  windowMs: z.number().int().describe('in this many milliseconds'),
});

const campaignSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  status: z.enum(STATUSES),
  pauseReason: z.string().nullable().describe('why it is paused: an operator, or a breaker naming its cause'),
  templateId: z.number().int(),
  senderId: z.number().int(),
  segment: z.record(z.string(), z.unknown()),
  scheduledAt: isoTime.nullable(),
  policyPreset: z.string(),
  frequencyCap: frequencyCapSchema
    .nullable()
    .describe("the campaign's own frequency cap (max 0: none); null: the configured PACER_FREQUENCY_CAP"),
  parameters: parameterMappingSchema.nullable().describe('where each template value comes from; null when the template takes none'),
  createdAt: isoTime,
  updatedAt: isoTime,
});

const countersSchema = z.record(z.string(), z.number().int()).describe('outbox rows per status and per outcome, and the total');

const paceSchema = z
  .object({
    tier: z.string().nullable().describe("the sender number's messaging-limit tier as Meta last named it"),
    perDay: z.number().int().nullable().describe('new people per rolling 24 h; null when unlimited or unknown'),
    usedLast24h: z.number().int().describe('people the number started conversations with in the last 24 h'),
    waiting: z.number().int().describe('rows of this campaign still to send (queued or held)'),
    daysNeeded: z.number().int().describe('rolling 24 h windows the waiting rows need at least'),
    throughputMps: z.number().int().nullable(),
  })
  .describe('the effective cap: how the messaging limit spreads this campaign over days');

const campaignSenderSchema = z
  .object({
    id: z.number().int(),
    phoneNumberId: z.string().describe("Meta's phone number id"),
    displayNumber: z.string(),
    verifiedName: z.string().nullable(),
    state: z.enum(['ok', 'throttled', 'stopped']),
    stateReason: z.string().nullable(),
    stateUntil: isoTime.nullable(),
    metaStatus: z.string().nullable(),
    ...sendingSchema,
  })
  .describe('a number the campaign sends from and whether it can send now (GET /senders/{phoneNumberId} has the rest)');

const sendsFromSchema = z
  .object({
    pool: z.enum(['spread', 'country']).nullable().describe("how the campaign's pool shares the audience out; null: its own number alone"),
    senders: z.array(campaignSenderSchema).describe('every number it sends from, its own first'),
    unknown: z.array(z.string()).describe('numbers it names that Pacer does not know (phone number ids; #senderId for its own)'),
  })
  .describe('every number the campaign sends from');

const outcomeSchema = z
  .object({
    key: z.string().describe('stable group key, e.g. `read`, `deferred:frequency_cap`, `skipped:no_consent`'),
    outcome: z.string(),
    label: z.string(),
    errorClass: z.string().nullable(),
    count: z.number().int(),
    codes: z.array(z.object({ code: z.number().int(), count: z.number().int() })),
    until: z
      .object({ first: isoTime, last: isoTime })
      .optional()
      .describe('waiting groups: when their rows are next due, earliest and latest'),
  })
  .describe('recipients grouped by what happened to them; waiting ones by the reason of their latest decision');

const capInEffectSchema = z
  .object({
    cap: frequencyCapSchema.nullable().describe('null: no frequency cap applies'),
    from: z.enum(['campaign', 'configuration']),
  })
  .describe("the frequency cap decide applies to this campaign's rows");

function campaignJson(c: Campaign): z.output<typeof campaignSchema> {
  return {
    id: c.id,
    name: c.name,
    status: c.status,
    pauseReason: c.pauseReason,
    templateId: c.templateId,
    senderId: c.senderId,
    segment: c.segment,
    scheduledAt: isoOrNull(c.scheduledAt),
    policyPreset: c.policyPreset,
    frequencyCap: c.frequencyCap ?? null,
    parameters: c.parameters === null || c.parameters === undefined ? null : readMapping(c.parameters, `campaign ${c.id}`),
    createdAt: iso(c.createdAt),
    updatedAt: iso(c.updatedAt),
  };
}

const withCounters = (c: Campaign, counters: CampaignCounters) => ({ ...campaignJson(c), counters });

const ACTIONS = {
  pause: 'Pause a running or scheduled campaign; it stays paused until resumed',
  resume: 'Resume a paused campaign (clears the pause reason)',
  cancel: 'Cancel a campaign for good: rows not yet sent end as cancelled',
} as const;

/** Campaigns: list, one with its counters, and the operator actions. */
export function campaignRoutes(deps: ApiDeps): AnyRoute[] {
  const { store, clock, policy } = deps;
  const actions = (Object.keys(ACTIONS) as (keyof typeof ACTIONS)[]).map((action) =>
    route({
      method: 'POST',
      url: `/campaigns/:id/${action}`,
      scope: 'write',
      operationId: `${action}Campaign`,
      tag: 'campaigns',
      summary: ACTIONS[action],
      params: idParams,
      ...(action === 'pause' ? { body: z.object({ reason: z.string().trim().min(1).max(200).optional() }).optional() } : {}),
      responses: {
        200: { description: 'The campaign after the change, with counters', schema: campaignSchema.extend({ counters: countersSchema }) },
        404: { description: 'No such campaign' },
        409: { description: 'The campaign is in a status this action does not apply to (e.g. resuming a cancelled one)' },
      },
      handler: async ({ params, body }) => {
        if ((await store.getCampaign(params.id)) === null) throw notFound(`campaign ${params.id}`);
        const reason = (body as { reason?: string } | undefined)?.reason;
        try {
          const campaign = await campaignAction(store, params.id, action, clock.now(), deps.signal, reason);
          return withCounters(campaign, await store.campaignCounters(campaign.id));
        } catch (error) {
          if (error instanceof CampaignActionError) throw new ApiError(409, 'invalid_transition', error.message);
          throw error;
        }
      },
    }),
  );
  return [
    route({
      method: 'GET',
      url: '/campaigns',
      scope: 'read',
      operationId: 'listCampaigns',
      tag: 'campaigns',
      summary: 'Campaigns, oldest first, optionally by status',
      query: z.object({ status: z.enum(STATUSES).optional() }),
      responses: {
        200: { description: 'Every campaign (or those with the status)', schema: z.object({ items: z.array(campaignSchema) }) },
      },
      handler: async ({ query }) => ({
        items: (await store.listCampaigns(query.status === undefined ? {} : { status: query.status })).map(campaignJson),
      }),
    }),
    route({
      method: 'GET',
      url: '/campaigns/:id',
      scope: 'read',
      operationId: 'getCampaign',
      tag: 'campaigns',
      summary: 'One campaign with its counters, pace, sender number, frequency cap and recipient outcomes',
      params: idParams,
      responses: {
        200: {
          description: 'The campaign',
          schema: campaignSchema.extend({
            counters: countersSchema,
            pace: paceSchema,
            sender: campaignSenderSchema.nullable().describe("the campaign's own number (senderId); null when Pacer no longer knows it"),
            sendsFrom: sendsFromSchema,
            frequencyCapInEffect: capInEffectSchema,
            outcomes: z.array(outcomeSchema),
          }),
        },
        404: { description: 'No such campaign' },
      },
      handler: async ({ params }) => {
        const campaign = await store.getCampaign(params.id);
        if (campaign === null) throw notFound(`campaign ${params.id}`);
        const counters = await store.campaignCounters(campaign.id);
        const numbers = await campaignNumbers(store, campaign, clock.now());
        return {
          ...withCounters(campaign, counters),
          pace: await campaignPace(store, campaign, counters.queued + counters.held, clock.now()),
          ...campaignNumbersJson(numbers, campaign.senderId),
          frequencyCapInEffect: frequencyCapInEffect(campaign, policy),
          outcomes: outcomesJson(await campaignOutcomes(store, campaign, policy)),
        };
      },
    }),
    campaignPreviewRoute(deps),
    ...actions,
  ];
}
