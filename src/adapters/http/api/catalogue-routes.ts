import { z } from 'zod';
import { codeLabel, ERROR_CATALOGUE, findErrorByCode } from '../../../core/error-catalogue/index.js';
import type { ErrorEntry } from '../../../core/error-entry.js';
import { ApiError } from './api-error.js';
import { route, type AnyRoute } from './route-table.js';
import { templateRoutes } from './templates-routes.js';
import type { ApiDeps } from './api-deps.js';

const errorEntrySchema = z
  .object({
    code: z.number().int(),
    codeTo: z.number().int().optional().describe('last code of a range'),
    label: z.string().describe('131049, or 200-299 for a range'),
    name: z.string(),
    class: z.string(),
    api: z.string(),
    surface: z.string(),
    retry: z.object({ kind: z.string() }).loose(),
    effects: z.object({ contact: z.string(), template: z.string(), sender: z.string(), campaign: z.string() }),
    messages: z.array(z.string()),
    page: z.object({ meaning: z.string(), cause: z.string(), retry: z.string(), action: z.string() }),
  })
  .loose();

const entryJson = (e: ErrorEntry) => ({ ...e, label: codeLabel(e) });

/** Reference data: Meta's error codes as Pacer understands them, and the message templates (templates-routes.ts). */
export function catalogueRoutes(deps: ApiDeps): AnyRoute[] {
  return [
    route({
      method: 'GET',
      url: '/errors',
      scope: 'read',
      operationId: 'listErrors',
      tag: 'errors',
      summary: 'The error catalogue: every Meta code Pacer knows, what it means and what Pacer does',
      responses: { 200: { description: 'Every entry', schema: z.object({ items: z.array(errorEntrySchema) }) } },
      handler: () => Promise.resolve({ items: ERROR_CATALOGUE.map(entryJson) }),
    }),
    route({
      method: 'GET',
      url: '/errors/:code',
      scope: 'read',
      operationId: 'getError',
      tag: 'errors',
      summary: 'One catalogue entry (a code inside a range finds the range)',
      params: z.object({ code: z.coerce.number().int().nonnegative().describe('a Meta error code, e.g. 131049') }),
      responses: {
        200: { description: 'The entry', schema: errorEntrySchema },
        404: { description: 'The catalogue has no entry for this code' },
      },
      handler: ({ params }) => {
        const entry = findErrorByCode(params.code);
        if (entry === undefined)
          return Promise.reject(new ApiError(404, 'unknown_error_code', `the catalogue has no entry for code ${params.code}`));
        return Promise.resolve(entryJson(entry));
      },
    }),
    ...templateRoutes(deps),
  ];
}
