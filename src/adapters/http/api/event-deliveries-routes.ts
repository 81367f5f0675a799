import { z } from 'zod';
import { attemptJson, deliveryJson, eventJson } from '../../presenters/event-json.js';
import type { ApiDeps } from './api-deps.js';
import { notFound } from './api-error.js';
import { attemptSchema, deliverySchema, eventSchema, replayBody } from './event-schemas.js';
import { route, type AnyRoute } from './route-table.js';
import { idParams, page, pageQuery, paginate } from './schemas.js';

const TAG = 'events';

const deliveriesQuery = pageQuery.extend({ status: z.enum(['pending', 'delivered', 'failed']).optional() });

/** What became of each event: deliveries, their attempts, and replays. */
export function eventDeliveryRoutes(deps: ApiDeps): AnyRoute[] {
  const { store, clock } = deps;
  return [
    route({
      method: 'GET',
      url: '/event-subscriptions/:id/deliveries',
      scope: 'admin',
      operationId: 'listEventDeliveries',
      tag: TAG,
      summary: "A subscription's deliveries, oldest first, optionally of one status",
      params: idParams,
      query: deliveriesQuery,
      responses: { 200: { description: 'One page', schema: page(deliverySchema) } },
      handler: async ({ params, query }) => {
        if ((await store.getEventSubscription(params.id)) === null) throw notFound(`event subscription #${params.id}`);
        return paginate(
          query.limit,
          query.after,
          (afterId, limit) => store.listEventDeliveries({ subscriptionId: params.id, status: query.status, afterId, limit }),
          deliveryJson,
        );
      },
    }),
    route({
      method: 'GET',
      url: '/event-deliveries/:id/attempts',
      scope: 'admin',
      operationId: 'listEventDeliveryAttempts',
      tag: TAG,
      summary: 'A delivery and each of its attempts: time, status code, error, duration',
      params: idParams,
      responses: {
        200: { description: 'Oldest attempt first', schema: z.object({ delivery: deliverySchema, attempts: z.array(attemptSchema) }) },
      },
      handler: async ({ params }) => {
        const delivery = await store.getEventDelivery(params.id);
        if (delivery === null) throw notFound(`event delivery #${params.id}`);
        return { delivery: deliveryJson(delivery), attempts: (await store.listDeliveryAttempts(params.id)).map(attemptJson) };
      },
    }),
    route({
      method: 'GET',
      url: '/events/:id',
      scope: 'admin',
      operationId: 'getOutboundEvent',
      tag: TAG,
      summary: 'One recorded event and its deliveries',
      params: idParams,
      responses: { 200: { description: 'The event', schema: z.object({ event: eventSchema, deliveries: z.array(deliverySchema) }) } },
      handler: async ({ params }) => {
        const event = await store.getOutboundEvent(params.id);
        if (event === null) throw notFound(`event #${params.id}`);
        const deliveries = await store.listEventDeliveries({ eventId: params.id, limit: 1000 });
        return { event: eventJson(event), deliveries: deliveries.map(deliveryJson) };
      },
    }),
    route({
      method: 'POST',
      url: '/events/replay',
      scope: 'admin',
      operationId: 'replayEvents',
      tag: TAG,
      summary: 'Queue the deliveries of chosen events, or of a time range, again (same webhook-id: receivers de-duplicate)',
      body: replayBody,
      responses: { 200: { description: 'How many deliveries were queued again', schema: z.object({ requeued: z.number().int() }) } },
      handler: async ({ body }) => {
        const only = body.subscriptionId === undefined ? {} : { subscriptionId: body.subscriptionId };
        const selection =
          body.eventIds !== undefined
            ? { eventIds: body.eventIds, ...only }
            : { from: Date.parse(body.from ?? ''), to: Date.parse(body.to ?? ''), ...only };
        return { requeued: await store.replayEventDeliveries(selection, clock.now()) };
      },
    }),
  ];
}
