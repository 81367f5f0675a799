import { z } from 'zod';
import { campaignAction, CampaignActionError } from '../../../app/campaign-actions.js';
import { campaignOutcomes, frequencyCapInEffect } from '../../../app/campaign-outcomes.js';
import { outcomesJson } from '../../presenters/outcomes-json.js';
import { campaignPace } from '../../../app/campaign-pace.js';
import { campaignNumbers } from '../../../app/sender-overview.js';
import { campaignNumbersJson } from '../../presenters/sender-json.js';
import { timingInEffect } from '../../../app/message-timing.js';
import type { ApiDeps } from './api-deps.js';
import { campaignPreviewRoute } from './campaign-preview-route.js';
import { ApiError, notFound } from './api-error.js';
import { route, type AnyRoute } from './route-table.js';
import { sendingSchema } from './senders-routes.js';
import { campaignCreateRoute } from './campaign-create-route.js';
import { campaignRecipientsRoute } from './campaign-recipients-route.js';
import {
  CAMPAIGN_STATUSES,
  campaignJson,
  campaignSchema,
  campaignWithCounters,
  countersSchema,
  frequencyCapSchema,
  withCounters,
} from './campaign-schemas.js';
import { campaignScheduleRoute, campaignStartRoute } from './campaign-start-routes.js';
import { idParams, isoTime } from './schemas.js';

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

const ACTIONS = {
  pause: 'Pause a running or scheduled campaign; it stays paused until resumed',
  resume: 'Resume a paused campaign (clears the pause reason)',
  cancel: 'Cancel a campaign for good: rows not yet sent end as cancelled',
} as const;

const timingInEffectSchema = z
  .object({
    window: z.object({ from: z.string(), to: z.string(), days: z.array(z.string()).nullable() }).nullable(),
    from: z.enum(['campaign', 'quiet_hours']).nullable().describe("the campaign's own window, the installation's quiet hours, or none"),
    categories: z.array(z.string()).nullable().describe('with quiet hours: the categories they hold back'),
    timeZone: z.string().describe('the zone of recipients whose own is not known'),
    maxDelayMs: z.number().int().nullable(),
    sentence: z.string(),
  })
  .describe("what governs the hours the campaign's messages go at");

/** Campaigns: create, list, one with its counters, schedule, start, recipients, and the operator actions. */
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
      body: (action === 'pause' ? z.strictObject({ reason: z.string().trim().min(1).max(200).optional() }) : z.strictObject({})).optional(),
      responses: {
        200: { description: 'The campaign after the change, with counters', schema: campaignWithCounters },
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
      query: z.object({ status: z.enum(CAMPAIGN_STATUSES).optional() }),
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
            timingInEffect: timingInEffectSchema,
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
          timingInEffect: timingInEffect(campaign, policy),
          outcomes: outcomesJson(await campaignOutcomes(store, campaign, policy)),
        };
      },
    }),
    campaignCreateRoute(deps),
    campaignPreviewRoute(deps),
    campaignRecipientsRoute(deps),
    campaignScheduleRoute(deps),
    campaignStartRoute(deps),
    ...actions,
  ];
}
