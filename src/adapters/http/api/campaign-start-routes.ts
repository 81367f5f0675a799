import { z } from 'zod';
import { scheduleCampaign } from '../../../app/schedule-campaign.js';
import { CampaignStartError, startCampaignById } from '../../../app/start-campaign.js';
import { iso } from '../../../core/time.js';
import type { ApiDeps } from './api-deps.js';
import { ApiError, notFound } from './api-error.js';
import { campaignWithCounters, instantInput, withCounters } from './campaign-schemas.js';
import { route, type AnyRoute } from './route-table.js';
import { idParams } from './schemas.js';

/** `POST /campaigns/:id/schedule`: when a draft's rows fall due once it is started. */
export function campaignScheduleRoute(deps: ApiDeps): AnyRoute {
  const { store, clock } = deps;
  return route({
    method: 'POST',
    url: '/campaigns/:id/schedule',
    scope: 'write',
    operationId: 'scheduleCampaign',
    tag: 'campaigns',
    summary: 'Set or clear when a draft campaign starts sending (its rows fall due then once it is started)',
    params: idParams,
    body: z.strictObject({
      scheduledAt: instantInput.nullable().describe('null: it sends as soon as it is started'),
    }),
    responses: {
      200: { description: 'The campaign with its new start time', schema: campaignWithCounters },
      400: { description: 'A bad time, or one at or after the campaign’s end (`endsAt`)' },
      404: { description: 'No such campaign' },
      409: { description: 'The campaign is no longer a draft: its rows are planned for the time it had when it started' },
    },
    handler: async ({ params, body }) => {
      const r = await scheduleCampaign(store, params.id, body.scheduledAt, clock.now());
      if (r.ok) return withCounters(r.campaign, await store.campaignCounters(r.campaign.id));
      switch (r.problem) {
        case 'not_found':
          throw notFound(`campaign ${params.id}`);
        case 'not_draft':
          throw new ApiError(
            409,
            'invalid_transition',
            `campaign ${params.id} is ${r.status}; only a draft takes a new start time (cancel it and create another to send at another time)`,
          );
        case 'ends_before_start':
          throw new ApiError(400, 'invalid_body', `the request body is not valid: scheduledAt: must come before the campaign's end`, [
            { path: 'scheduledAt', message: `must come before the campaign's end (${iso(r.endsAt)})` },
          ]);
      }
    },
  });
}

const startResult = z.object({
  scanned: z.number().int().describe('contacts looked at'),
  matched: z.number().int().describe('of them, those the segment selects'),
  inserted: z.number().int().describe('new outbox rows; 0 when it was started before (a start never plans twice)'),
});

/** `POST /campaigns/:id/start`: expands the segment into the outbox, as `pacer campaign start`. */
export function campaignStartRoute(deps: ApiDeps): AnyRoute {
  const { store, clock, policy } = deps;
  return route({
    method: 'POST',
    url: '/campaigns/:id/start',
    scope: 'write',
    operationId: 'startCampaign',
    tag: 'campaigns',
    summary: 'Start a campaign: one outbox row per contact its segment selects now; starting again adds only new matches',
    params: idParams,
    body: z.strictObject({}).optional(),
    responses: {
      200: {
        description: 'Running (a paused campaign stays paused until resumed), with what the start planned',
        schema: campaignWithCounters.extend({ start: startResult }),
      },
      404: { description: 'No such campaign' },
      409: { description: 'Cancelled or completed, or it cannot start as it is (its template’s placeholders or a pool number unknown)' },
    },
    handler: async ({ params }) => {
      const campaign = await store.getCampaign(params.id);
      if (campaign === null) throw notFound(`campaign ${params.id}`);
      if (campaign.status === 'cancelled' || campaign.status === 'completed')
        throw new ApiError(409, 'invalid_transition', `campaign ${params.id} is ${campaign.status}; it cannot start again`);
      let start;
      try {
        start = await startCampaignById(store, params.id, clock.now(), deps.signal, { stopButtons: policy.stopButtons });
      } catch (error) {
        if (error instanceof CampaignStartError) throw new ApiError(409, 'cannot_start', error.message);
        throw error;
      }
      const after = (await store.getCampaign(params.id)) ?? campaign;
      return { ...withCounters(after, await store.campaignCounters(after.id)), start };
    },
  });
}
