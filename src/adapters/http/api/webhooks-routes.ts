import { z } from 'zod';
import { listQuarantine, replayQuarantine, type QuarantinedPayload } from '../../../app/webhook-quarantine.js';
import { iso } from '../../../core/time.js';
import type { ApiDeps } from './api-deps.js';
import { route, type AnyRoute } from './route-table.js';
import { isoTime, page, pageQuery, paginate } from './schemas.js';

const quarantined = z.object({
  id: z.number().int(),
  receivedAt: isoTime,
  bytes: z.number().int().describe('payload size; the payload itself is not returned (it holds phone numbers)'),
  signed: z.boolean().describe('whether the signature was verified'),
  reason: z.string().nullable().describe('why processing refused it'),
});

const quarantinedJson = (p: QuarantinedPayload): z.output<typeof quarantined> => ({ ...p, receivedAt: iso(p.receivedAt) });

const replayBody = z
  .object({
    ids: z.array(z.number().int().positive()).min(1).max(10_000).optional().describe('quarantined payload ids'),
    all: z.literal(true).optional().describe('every quarantined payload'),
  })
  .refine((b) => (b.ids === undefined) !== (b.all === undefined), {
    path: ['ids'],
    message: 'give either ids (a non-empty list) or all: true',
  });

/** The webhook quarantine: payloads the processor could not apply, and their replay after a fix. */
export function webhookRoutes(deps: ApiDeps): AnyRoute[] {
  return [
    route({
      method: 'GET',
      url: '/webhooks/quarantine',
      scope: 'read',
      operationId: 'listQuarantine',
      tag: 'webhooks',
      summary: 'Quarantined webhook payloads, oldest first, with the reason',
      query: pageQuery,
      responses: { 200: { description: 'One page', schema: page(quarantined) } },
      handler: ({ query }) => paginate(query.limit, query.after, (after, n) => listQuarantine(deps.store, after, n), quarantinedJson),
    }),
    route({
      method: 'POST',
      url: '/webhooks/quarantine/replay',
      scope: 'admin',
      operationId: 'replayQuarantine',
      tag: 'webhooks',
      summary: 'Send quarantined payloads back to the processor',
      body: replayBody,
      responses: {
        200: { description: 'How many were released; the server processes them at once', schema: z.object({ released: z.number().int() }) },
      },
      handler: async ({ body }) => {
        const { released } = await replayQuarantine(deps.store, body.all === true ? null : (body.ids ?? []), {
          kind: 'pump',
          kick: deps.onReplay,
        });
        return { released };
      },
    }),
  ];
}
