import { z } from 'zod';
import { createCampaign, POLICY_PRESETS, type CreateCampaignResult, type NewCampaign } from '../../../app/create-campaign.js';
import { campaignTimingInput } from '../../../app/message-timing.js';
import { segmentSchema } from '../../../app/segment-schema.js';
import { senderPoolSchema } from '../../../app/sender-pool.js';
import { parameterMappingSchema } from '../../../app/template-mapping.js';
import { FREQUENCY_CAP_MAX, parseFrequencyCap } from '../../../core/duration.js';
import { poolNumbers, type SenderPool } from '../../../core/sender-pool.js';
import { MINUTE } from '../../../core/time.js';
import type { ApiDeps } from './api-deps.js';
import { ApiError, type Issue } from './api-error.js';
import { campaignWithCounters, instantInput, withCounters } from './campaign-schemas.js';
import { route, type AnyRoute } from './route-table.js';

const phoneNumberId = z.string().regex(/^\d{5,20}$/, "a phone number id is Meta's digits");

const templateRef = z
  .strictObject({
    id: z.number().int().positive().optional().describe('the template’s id in Pacer (GET /templates)'),
    name: z.string().min(1).max(512).optional(),
    language: z.string().min(2).max(15).optional().describe('with name; default en_US'),
  })
  .superRefine((t, ctx) => {
    if ((t.id === undefined) === (t.name === undefined))
      ctx.addIssue({ code: 'custom', path: ['name'], message: 'give the template’s name (with its language) or its id, not both' });
    if (t.id !== undefined && t.language !== undefined)
      ctx.addIssue({ code: 'custom', path: ['language'], message: 'a template id names its language already' });
  })
  .describe('a registered template, by name and language or by id');

const frequencyCapInput = z
  .union([
    z.string().describe('like `1/7d` (1 to 16 per window), or `off`'),
    z.strictObject({
      max: z.number().int().min(0).max(FREQUENCY_CAP_MAX).describe('marketing messages per contact at most; 0: no cap'),
      windowMs: z.number().int().min(0).describe('in this many milliseconds (at least a minute when max is above 0)'),
    }),
  ])
  .transform((cap, ctx) => {
    const parsed = typeof cap === 'string' ? parseFrequencyCap(cap) : cap.max === 0 ? { max: 0, windowMs: 0 } : cap;
    if (parsed === null || (parsed.max > 0 && parsed.windowMs < MINUTE)) {
      ctx.addIssue({
        code: 'custom',
        message: `must be like 1/7d (1 to ${FREQUENCY_CAP_MAX} marketing messages per contact per window of at least a minute), off, or {max, windowMs}`,
      });
      return z.NEVER;
    }
    return parsed;
  })
  .describe("this campaign's own frequency cap; absent: the configured PACER_FREQUENCY_CAP");

const createBody = z.strictObject({
  name: z.string().trim().min(1).max(200),
  template: templateRef,
  parameters: parameterMappingSchema
    .optional()
    .describe('where each template value comes from, as `pacer campaign create --param` takes it'),
  segment: segmentSchema
    .optional()
    .describe('whom it goes to (default: every contact); a marketing template adds marketing consent unless the segment names consent'),
  sender: phoneNumberId.optional().describe('the number it sends from (default: WHATSAPP_PHONE_NUMBER_ID); registered on first use'),
  senderPool: senderPoolSchema
    .optional()
    .describe(
      'several numbers instead of `sender`: {"by":"spread","numbers":[…]} or {"by":"country","countries":{"GB":"…"},"otherwise":"…"}',
    ),
  policyPreset: z.enum(POLICY_PRESETS).optional().describe('the 131049 retry schedule (default meta)'),
  frequencyCap: frequencyCapInput.optional(),
  timing: campaignTimingInput
    .optional()
    .describe(
      "{window: {from: '09:00', to: '20:00', days: ['mon', …]}, timeZone, maxDelayMs}, as --window, --days, --time-zone, --max-delay",
    ),
  scheduledAt: instantInput.optional().describe('when its rows fall due once started (default: when it is started)'),
  endsAt: instantInput.optional().describe('when whatever is left is skipped (default: it runs until done)'),
});

type CreateBody = z.output<typeof createBody>;

function refused(code: string, issues: Issue[]): ApiError {
  return new ApiError(400, code, `the campaign was not created: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`, issues);
}

/** Why the use case refused it, by the field at fault (the same checks and words as `pacer campaign create`). */
function problemError(r: Extract<CreateCampaignResult, { ok: false }>, body: CreateBody, template: string): ApiError {
  switch (r.problem) {
    case 'template_not_registered':
      return refused('unknown_template', [
        { path: 'template', message: `${template} is not known: run pacer template sync (GET /api/v1/templates lists them)` },
      ]);
    case 'template_unavailable':
      return refused('template_unavailable', [
        { path: 'template', message: `${template} is rejected, disabled or deleted at Meta: it cannot be sent` },
      ]);
    case 'ends_before_start':
      return refused('invalid_body', [
        { path: 'endsAt', message: `must come after the start (${body.scheduledAt === undefined ? 'now' : 'scheduledAt'})` },
      ]);
    case 'unknown_preset':
      return refused('invalid_body', [{ path: 'policyPreset', message: `must be one of ${POLICY_PRESETS.join(', ')}` }]);
    case 'sender_pool':
      return refused('invalid_sender_pool', [{ path: 'senderPool', message: `cannot be used: ${r.detail}` }]);
    case 'parameters':
      return new ApiError(
        400,
        'invalid_parameters',
        `the parameters do not fit ${template}; nothing was created: ${r.issues.map((i) => `parameters.${i.key}: ${i.message}`).join('; ')}`,
        r.issues.map((i) => ({ path: i.key === '(template)' ? 'parameters' : `parameters.${i.key}`, message: i.message })),
      );
  }
}

/** A by-country pool's countries as ISO codes (upper case), as `--by-country` takes them. */
function normalPool(pool: SenderPool): SenderPool {
  if (pool.by !== 'country') return pool;
  return { ...pool, countries: Object.fromEntries(Object.entries(pool.countries).map(([c, id]) => [c.toUpperCase(), id])) };
}

/** `POST /campaigns`: a draft, through the use case `pacer campaign create` calls. */
export function campaignCreateRoute(deps: ApiDeps): AnyRoute {
  const { store, clock } = deps;
  return route({
    method: 'POST',
    url: '/campaigns',
    scope: 'write',
    operationId: 'createCampaign',
    tag: 'campaigns',
    summary: 'Create a draft campaign from a registered template, a parameter mapping and a segment',
    body: createBody,
    idempotent: true,
    responses: {
      201: {
        description:
          'Created as a draft; start it with POST /campaigns/{id}/start. `warnings`: what may not go as asked (e.g. Meta may deliver later than maxDelayMs)',
        schema: campaignWithCounters.extend({ warnings: z.array(z.string()) }),
      },
      400: { description: 'A field is wrong (unknown template, parameters that do not fit it, a pool that cannot route...)' },
    },
    handler: async ({ body, reply }) => {
      if (body.sender !== undefined && body.senderPool !== undefined)
        throw refused('invalid_body', [{ path: 'senderPool', message: 'sender names one number; a pool names its own: give one of them' }]);
      const pool = body.senderPool === undefined ? undefined : normalPool(body.senderPool);
      const sender = body.sender ?? (pool === undefined ? undefined : poolNumbers(pool)[0]) ?? deps.phoneNumberId;
      if (sender === null)
        throw refused('invalid_body', [
          { path: 'sender', message: 'name the number it sends from: sender, senderPool, or WHATSAPP_PHONE_NUMBER_ID on the server' },
        ]);
      let template = body.template.name === undefined ? null : { name: body.template.name, language: body.template.language ?? 'en_US' };
      if (body.template.id !== undefined) {
        const t = await store.getTemplateById(body.template.id);
        if (t === null) throw refused('unknown_template', [{ path: 'template.id', message: `no template has id ${body.template.id}` }]);
        template = { name: t.name, language: t.language };
      }
      if (template === null) throw new Error('the body schema lets no template through without a name or an id');
      const campaign: NewCampaign = {
        name: body.name,
        template,
        sender: { phoneNumberId: sender },
        segment: body.segment ?? {},
        scheduledAt: body.scheduledAt ?? null,
        endsAt: body.endsAt ?? null,
        ...(body.policyPreset === undefined ? {} : { policyPreset: body.policyPreset }),
        frequencyCap: body.frequencyCap ?? null,
        parameters: body.parameters ?? {},
        ...(pool === undefined ? {} : { pool }),
        ...(body.timing === undefined ? {} : { timing: body.timing }),
      };
      const r = await createCampaign(store, campaign, clock.now(), deps.policy.marketingPath);
      if (!r.ok) throw problemError(r, body, `template ${template.name} (${template.language})`);
      return reply
        .code(201)
        .header('location', `${reply.request.url.split('?')[0] ?? ''}/${r.campaign.id}`)
        .send({ ...withCounters(r.campaign, await store.campaignCounters(r.campaign.id)), warnings: r.warnings });
    },
  });
}
