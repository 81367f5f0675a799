import { z } from 'zod';
import { subscribeEvents } from '../../../app/event-subscriptions.js';
import { subscriptionJson } from '../../presenters/event-json.js';
import type { SubscriptionDeliveryTotals } from '../../../ports/store.js';
import type { ApiDeps } from './api-deps.js';
import { ApiError, notFound } from './api-error.js';
import { createdSubscriptionSchema, subscribeBody, subscriptionSchema } from './event-schemas.js';
import { route, type AnyRoute } from './route-table.js';
import { idParams } from './schemas.js';

const TAG = 'events';

/**
 * Event subscriptions: who receives Pacer's events (signed webhooks, Standard Webhooks). Admin
 * scope throughout: a subscription sends what happens to contacts wherever its URL points.
 */
export function eventSubscriptionRoutes(deps: ApiDeps): AnyRoute[] {
  const { store, clock } = deps;
  const totalsOf = async (): Promise<Map<number, SubscriptionDeliveryTotals>> =>
    new Map((await store.eventDeliveryTotals(clock.now())).map((t) => [t.subscriptionId, t]));
  const one = async (id: number) => {
    const s = await store.getEventSubscription(id);
    if (s === null) throw notFound(`event subscription #${id}`);
    return subscriptionJson(s, (await totalsOf()).get(id));
  };
  const setEnabled = (enabled: boolean) => async (id: number) => {
    if (!(await store.setEventSubscriptionEnabled(id, enabled, clock.now()))) throw notFound(`event subscription #${id}`);
    return one(id);
  };
  return [
    route({
      method: 'POST',
      url: '/event-subscriptions',
      scope: 'admin',
      operationId: 'createEventSubscription',
      tag: TAG,
      summary: 'Subscribe a URL to events; the answer holds the signing secret, shown this once',
      body: subscribeBody,
      responses: { 201: { description: 'Created, with its secret', schema: createdSubscriptionSchema } },
      handler: async ({ body, reply }) => {
        const r = await subscribeEvents(store, body, deps.mode, clock.now());
        if (r.kind === 'invalid') {
          const issues = r.issues.map((i) => ({ path: i.field, message: i.message }));
          const text = issues.map((i) => `${i.path}: ${i.message}`).join('; ');
          throw new ApiError(400, 'invalid_body', `the request body is not valid: ${text}`, issues);
        }
        return reply.code(201).send({ ...subscriptionJson(r.subscription), secret: r.secret });
      },
    }),
    route({
      method: 'GET',
      url: '/event-subscriptions',
      scope: 'admin',
      operationId: 'listEventSubscriptions',
      tag: TAG,
      summary: 'Every event subscription, with its deliveries counted (never its secret)',
      responses: { 200: { description: 'In creation order', schema: z.object({ items: z.array(subscriptionSchema) }) } },
      handler: async () => {
        const totals = await totalsOf();
        return { items: (await store.listEventSubscriptions()).map((s) => subscriptionJson(s, totals.get(s.id))) };
      },
    }),
    route({
      method: 'GET',
      url: '/event-subscriptions/:id',
      scope: 'admin',
      operationId: 'getEventSubscription',
      tag: TAG,
      summary: 'One event subscription, with its deliveries counted',
      params: idParams,
      responses: { 200: { description: 'The subscription', schema: subscriptionSchema } },
      handler: ({ params }) => one(params.id),
    }),
    route({
      method: 'POST',
      url: '/event-subscriptions/:id/disable',
      scope: 'admin',
      operationId: 'disableEventSubscription',
      tag: TAG,
      summary: 'Stop sending to it; what it is owed meanwhile waits (no new events are kept for it)',
      params: idParams,
      responses: { 200: { description: 'The subscription, disabled', schema: subscriptionSchema } },
      handler: ({ params }) => setEnabled(false)(params.id),
    }),
    route({
      method: 'POST',
      url: '/event-subscriptions/:id/enable',
      scope: 'admin',
      operationId: 'enableEventSubscription',
      tag: TAG,
      summary: 'Send to it again, starting with what waited',
      params: idParams,
      responses: { 200: { description: 'The subscription, enabled', schema: subscriptionSchema } },
      handler: ({ params }) => setEnabled(true)(params.id),
    }),
    route({
      method: 'DELETE',
      url: '/event-subscriptions/:id',
      scope: 'admin',
      operationId: 'deleteEventSubscription',
      tag: TAG,
      summary: 'Delete it with its deliveries and their attempts (the events stay)',
      params: idParams,
      responses: { 200: { description: 'Deleted', schema: z.object({ id: z.number().int(), deleted: z.literal(true) }) } },
      handler: async ({ params }) => {
        if (!(await store.deleteEventSubscription(params.id))) throw notFound(`event subscription #${params.id}`);
        return { id: params.id, deleted: true as const };
      },
    }),
  ];
}
