import { z } from 'zod';
import { syncTemplates } from '../../../app/sync-templates.js';
import { templateNeeds } from '../../../app/template-needs.js';
import { iso } from '../../../core/time.js';
import type { Template } from '../../../ports/store.js';
import type { ApiDeps } from './api-deps.js';
import { ApiError } from './api-error.js';
import { route, type AnyRoute } from './route-table.js';
import { categorySchema, isoOrNull, isoTime } from './schemas.js';

const parameterSchema = z.object({
  key: z.string().describe('as a parameter mapping names it: `body.1`, `header`, `button.0`'),
  part: z.enum(['header_text', 'header_media', 'body', 'url_suffix', 'copy_code', 'quick_reply']),
  placeholder: z.string().nullable().describe('the placeholder’s name in its text (`1`, `first_name`)'),
  required: z.boolean().describe('quick-reply payloads may be left out; every other value is needed'),
  maxLength: z.number().int().nullable().describe("Meta's limit on the value, in characters"),
  mediaKind: z.enum(['image', 'video', 'document']).nullable(),
  label: z.string().describe('e.g. `body {{1}}`, `button 0 (URL suffix)`'),
});

const templateSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  language: z.string(),
  category: categorySchema,
  status: z.string(),
  quality: z.string().nullable(),
  pausedUntil: isoTime.nullable(),
  metaId: z.string().nullable().describe("Meta's template id; null for one registered by hand"),
  subCategory: z.string().nullable(),
  parameterFormat: z.enum(['positional', 'named']).nullable(),
  components: z.array(z.unknown()).nullable().describe("Meta's components as the last sync listed them; null for one registered by hand"),
  parameters: z
    .array(parameterSchema)
    .nullable()
    .describe('the values a campaign or message must fill in; null when Pacer does not know the template’s placeholders'),
  unsupported: z.array(z.string()).describe('parts Pacer cannot fill in yet (a location header, a carousel): such a template is refused'),
  syncedAt: isoTime.nullable(),
  updatedAt: isoTime,
});

function templateJson(t: Template): z.output<typeof templateSchema> {
  const needs = templateNeeds(t);
  return {
    id: t.id,
    name: t.name,
    language: t.language,
    category: t.category,
    status: t.status,
    quality: t.quality,
    pausedUntil: isoOrNull(t.pausedUntil),
    metaId: t.metaId,
    subCategory: t.subCategory,
    parameterFormat: t.parameterFormat,
    components: t.components,
    parameters: needs.known ? needs.parameters : null,
    unsupported: needs.known ? needs.unsupported : [],
    syncedAt: isoOrNull(t.syncedAt),
    updatedAt: iso(t.updatedAt),
  };
}

const syncReport = z.object({
  pages: z.number().int().describe("pages of Meta's template list read"),
  added: z.number().int(),
  updated: z.number().int(),
  unchanged: z.number().int(),
  removed: z.number().int().describe('synced before, no longer listed: marked deleted'),
  offlineOnly: z.number().int().describe('registered by hand and not on the account: left as they are'),
  refused: z
    .array(z.object({ id: z.string().nullable(), name: z.string().nullable(), language: z.string().nullable(), reason: z.string() }))
    .describe('templates Meta listed that Pacer cannot read, each with why; left as they were'),
});

/** Message templates: the registered ones with what they need, and a sync from the business account. */
export function templateRoutes(deps: ApiDeps): AnyRoute[] {
  const { store, clock } = deps;
  return [
    route({
      method: 'GET',
      url: '/templates',
      scope: 'read',
      operationId: 'listTemplates',
      tag: 'templates',
      summary: 'Registered message templates with their status, quality, components and the values they need',
      responses: { 200: { description: 'By name and language', schema: z.object({ items: z.array(templateSchema) }) } },
      handler: async () => ({ items: (await store.listTemplates()).map(templateJson) }),
    }),
    route({
      method: 'POST',
      url: '/templates/sync',
      scope: 'write',
      operationId: 'syncTemplates',
      tag: 'templates',
      summary: "Read every template of the WhatsApp Business Account with Meta's category, status and quality (pacer template sync)",
      body: z.strictObject({}).optional(),
      responses: {
        200: { description: 'What changed; nothing changes unless the whole list was read', schema: syncReport },
        502: { description: "Meta's answer could not be used (a refused token, an unreadable page): nothing changed" },
        503: { description: 'No business account is configured (WHATSAPP_BUSINESS_ACCOUNT_ID and WHATSAPP_ACCESS_TOKEN)' },
      },
      handler: async () => {
        const account = deps.templateAccount;
        if (account === null)
          throw new ApiError(
            503,
            'no_template_account',
            'templates are read from the WhatsApp Business Account: set WHATSAPP_BUSINESS_ACCOUNT_ID and WHATSAPP_ACCESS_TOKEN on the server',
          );
        const result = await syncTemplates({ store, api: account.api, now: () => clock.now() }, account.wabaId);
        if (!result.ok) throw new ApiError(502, 'template_sync_failed', `template sync failed, nothing changed: ${result.reason}`);
        return result.report;
      },
    }),
  ];
}
