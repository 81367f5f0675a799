import { z } from 'zod';
import { MAX_SEGMENT_SAMPLE, previewSegment, segmentSample } from '../../../app/segment-preview.js';
import { segmentSchema } from '../../../app/segment-schema.js';
import { mask } from '../../presenters/mask.js';
import type { ApiDeps } from './api-deps.js';
import { route, type AnyRoute } from './route-table.js';

const previewResult = z.object({
  contacts: z.number().int().describe('contacts Pacer knows'),
  matched: z.number().int().describe('of them, those the segment selects now'),
  matchedNow: z
    .object({ cooling_off: z.number().int(), held: z.number().int(), stopped: z.number().int(), unreachable: z.number().int() })
    .describe('among the matched, how many are in each state now (a contact may be in several); they cannot get marketing now'),
  sample: z
    .array(z.object({ contactId: z.number().int(), to: z.string().describe('masked'), tags: z.array(z.string()) }))
    .describe('the first matched contacts by id, as a start would plan them'),
});

/** Segments: what one selects, before a campaign is made of it (`pacer segment preview`). */
export function segmentRoutes(deps: ApiDeps): AnyRoute[] {
  const { store, clock } = deps;
  return [
    route({
      method: 'POST',
      url: '/segments/preview',
      scope: 'read',
      operationId: 'previewSegment',
      tag: 'segments',
      summary: 'How many contacts a segment selects now, how many of them cannot get marketing now, and a few of them',
      body: z.strictObject({
        segment: segmentSchema.describe('as POST /campaigns takes it'),
        sample: z.number().int().min(0).max(MAX_SEGMENT_SAMPLE).default(5).describe(`contacts to show (0-${MAX_SEGMENT_SAMPLE})`),
      }),
      responses: { 200: { description: 'The counts and the sample', schema: previewResult } },
      handler: async ({ body }) => {
        const now = clock.now();
        const [counts, sample] = await Promise.all([
          previewSegment(store, body.segment, now),
          segmentSample(store, body.segment, now, body.sample),
        ]);
        return {
          ...counts,
          sample: sample.map((c) => ({ contactId: c.id, to: mask(c.phoneE164 ?? c.waId ?? c.bsuid ?? ''), tags: c.tags })),
        };
      },
    }),
  ];
}
