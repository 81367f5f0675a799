import { z } from 'zod';
import { findContactByText } from '../../../app/find-contact-by-text.js';
import { MAX_PREVIEW_SAMPLE, previewCampaign, type PreviewCampaignOptions } from '../../../app/preview-campaign.js';
import { campaignPreviewJson } from '../../presenters/campaign-preview-json.js';
import { mask } from '../../presenters/mask.js';
import type { ApiDeps } from './api-deps.js';
import { ApiError, notFound } from './api-error.js';
import { route, type AnyRoute } from './route-table.js';
import { categorySchema, idParams } from './schemas.js';

const reasonSchema = z.enum(['missing_parameter', 'invalid_parameter']);

const skipSchema = z.object({
  reason: reasonSchema,
  slot: z.string().describe('the template slot: `body.1`, `header`, `button.0`'),
  detail: z.string().describe('the slot and where its value comes from, e.g. `body {{1}}: first_name is missing`'),
});

const messageSchema = z
  .object({
    header: z.string().nullable().describe('text header with its values in; a media header as `[image https://…]`'),
    body: z.string(),
    footer: z.string().nullable(),
    buttons: z.array(z.string()).describe('each button as shown, e.g. `Shop → https://shop.example/c/ADA15`'),
  })
  .describe('the message as the recipient reads it');

const sampleBase = {
  contactId: z.number().int(),
  to: z.string().describe('the contact’s number, masked'),
  inSegment: z.boolean().describe('whether the campaign’s segment selects the contact now'),
};

const previewSchema = z.object({
  campaignId: z.number().int(),
  template: z.object({
    name: z.string(),
    language: z.string(),
    category: categorySchema,
    placeholdersKnown: z.boolean().describe('false for a template registered by hand: its text and placeholders are not known'),
  }),
  notice: z.string().nullable().describe('what to know before starting (an unknown template), or null'),
  samples: z.array(
    z.union([
      z.object({ ...sampleBase, preview: messageSchema.nullable().describe('null when the template’s text is not known') }),
      z.object({ ...sampleBase, skipped: skipSchema.describe('why a start would skip this recipient') }),
    ]),
  ),
  audience: z.object({
    matched: z.number().int().describe('contacts the segment selects now'),
    wouldSend: z.number().int().describe('of them, those with every template value (the send decision still judges each)'),
    skipped: z
      .array(skipSchema.extend({ count: z.number().int() }))
      .describe('recipients a start would skip, by reason, slot and problem (no recipient’s own value), most first'),
    complete: z.boolean().describe('true: every contact was counted (always so here; the dashboard counts only the first ones)'),
  }),
});

/** `GET /campaigns/:id/preview`: what a start would render now, for a few recipients or one contact. */
export function campaignPreviewRoute(deps: ApiDeps): AnyRoute {
  const { store, clock, policy } = deps;
  return route({
    method: 'GET',
    url: '/campaigns/:id/preview',
    scope: 'read',
    operationId: 'previewCampaign',
    tag: 'campaigns',
    summary: 'The message as recipients would read it, and how many a start would skip for which missing value',
    params: idParams,
    query: z.object({
      sample: z.coerce
        .number()
        .int()
        .min(0)
        .max(MAX_PREVIEW_SAMPLE)
        .default(3)
        .describe(`recipients to show, first by contact id (0-${MAX_PREVIEW_SAMPLE})`),
      contact: z
        .string()
        .trim()
        .min(1)
        .max(64)
        .optional()
        .describe('preview this contact instead (phone number, wa_id or business-scoped user id), in the segment or not'),
    }),
    responses: {
      200: { description: 'Samples and the audience counts', schema: previewSchema },
      400: { description: 'A bad `sample` or `contact`' },
      404: { description: 'No such campaign, or no contact matches `contact`' },
    },
    handler: async ({ params, query }) => {
      if ((await store.getCampaign(params.id)) === null) throw notFound(`campaign ${params.id}`);
      const options: PreviewCampaignOptions = { sample: query.sample, stopButtons: policy.stopButtons };
      if (query.contact !== undefined) {
        const contact = await findContactByText(store, query.contact);
        if (contact === null) throw new ApiError(404, 'not_found', `no contact matches ${mask(query.contact)}`);
        options.contact = { id: contact.id };
      }
      const r = await previewCampaign(store, params.id, clock.now(), options);
      if (!r.ok) throw notFound(r.problem === 'campaign_not_found' ? `campaign ${params.id}` : 'the contact');
      return campaignPreviewJson(r.preview);
    },
  });
}
