import type { CountryCode } from 'libphonenumber-js/max';
import { z } from 'zod';
import type { ContactUpsertInput } from '../../../app/contact-input.js';
import type { FieldError } from '../../../app/contact-row.js';
import { upsertContactRows, type RowOutcome } from '../../../app/upsert-contact-rows.js';
import type { ApiDeps } from './api-deps.js';
import { issuesOf } from './api-error.js';
import { ndjsonLines } from './body-types.js';
import { COUNTRY_PARAMETER, contactUpsertBody } from './contact-schemas.js';
import { API_CONSENT_SOURCE, writeQuery } from './contact-write-routes.js';
import { route, type AnyRoute } from './route-table.js';

/** Rows one request may carry; more are refused whole, so a client splits them rather than loses some. */
export const BULK_MAX_ROWS = 10_000;
/** Bytes one request may carry: 10,000 rows of about 1.6 KB each. */
export const BULK_BODY_LIMIT = 16 * 1024 * 1024;

const { $schema: _dialect, ...rowDocument } = z.toJSONSchema(contactUpsertBody, { io: 'input', unrepresentable: 'any' });

/**
 * Rows are checked one by one in the handler, so a bad row is reported and the others written; the
 * edge checks only that the body is a list of the right length. The document shows each row's shape.
 */
const bulkBody = z
  .array(z.unknown())
  .min(1, 'no rows: send at least one contact')
  .max(BULK_MAX_ROWS, `at most ${BULK_MAX_ROWS} rows a request: send the rest in further requests`)
  .meta({ items: rowDocument, description: `contacts as POST /contacts takes them, at most ${BULK_MAX_ROWS}` });

const rowError = z.object({
  field: z.string().nullable().describe('the field at fault (`phone`, `consent.marketing.source`); null for the row'),
  message: z.string(),
});
const rowResult = z.object({
  index: z.number().int().optional().describe('0-based position in a JSON array body'),
  line: z.number().int().optional().describe('1-based line of an NDJSON body'),
  status: z.enum(['created', 'updated', 'unchanged', 'error']),
  contactId: z.number().int().nullable(),
  errors: z.array(rowError),
});
const bulkResult = z.object({
  totals: z.object({
    rows: z.number().int(),
    created: z.number().int(),
    updated: z.number().int(),
    unchanged: z.number().int(),
    error: z.number().int(),
  }),
  results: z.array(rowResult).describe('one per row, in the order sent'),
});

type Ref = { index: number } | { line: number };
type Result = z.output<typeof rowResult>;

const asErrors = (errors: readonly FieldError[]) => errors.map((e) => ({ field: e.field, message: e.reason }));

/** Each row of a JSON array or an NDJSON body (`lines`: each item's line), with where it came from and whether it is a contact at all. */
function readRows(
  body: readonly unknown[],
  lines: readonly number[] | undefined,
): Array<{ ref: Ref; input: ContactUpsertInput } | { ref: Ref; errors: Result['errors'] }> {
  return body.map((item, index) => {
    const line = lines?.[index];
    const ref: Ref = line === undefined ? { index } : { line };
    const parsed = contactUpsertBody.safeParse(item);
    if (parsed.success) return { ref, input: parsed.data };
    const issues = issuesOf(contactUpsertBody, parsed.error, 'body', undefined);
    return { ref, errors: issues.map((i) => ({ field: i.path === '(root)' ? null : i.path, message: i.message })) };
  });
}

function resultOf(ref: Ref, outcome: RowOutcome): Result {
  return outcome.status === 'error'
    ? { ...ref, status: 'error', contactId: null, errors: asErrors(outcome.errors) }
    : { ...ref, status: outcome.status, contactId: outcome.contactId, errors: [] };
}

/** POST /contacts/bulk: many contacts at once, as a JSON array or NDJSON, with an outcome per row. */
export function contactBulkRoute(deps: ApiDeps): AnyRoute {
  const { store, policy, clock } = deps;
  return route({
    method: 'POST',
    url: '/contacts/bulk',
    scope: 'write',
    operationId: 'upsertContacts',
    tag: 'contacts',
    summary: `Create or update up to ${BULK_MAX_ROWS} contacts (JSON array or NDJSON); a bad row is reported and the others written`,
    query: writeQuery,
    body: bulkBody,
    contentTypes: ['application/json', 'application/x-ndjson'],
    idempotent: true,
    bodyLimit: BULK_BODY_LIMIT,
    responses: {
      200: { description: 'An outcome per row, with its field errors, and the totals', schema: bulkResult },
      413: { description: `The body is larger than ${BULK_BODY_LIMIT} bytes` },
    },
    handler: async ({ query, body, request }) => {
      const rows = readRows(body, ndjsonLines(request.body));
      const inputs = rows.flatMap((r) => ('input' in r ? [r.input] : []));
      const outcomes = await upsertContactRows(store, inputs, {
        defaultCountry: (query.default_country ?? null) as CountryCode | null,
        countryOption: COUNTRY_PARAMETER,
        policy,
        now: clock.now(),
        source: API_CONSENT_SOURCE,
      });
      // The outcomes come in the order of the rows that were contacts.
      let written = 0;
      const results = rows.map((r): Result =>
        'input' in r ? resultOf(r.ref, outcomes[written++]!) : { ...r.ref, status: 'error', contactId: null, errors: r.errors },
      );
      const count = (status: Result['status']) => results.filter((r) => r.status === status).length;
      return {
        totals: {
          rows: results.length,
          created: count('created'),
          updated: count('updated'),
          unchanged: count('unchanged'),
          error: count('error'),
        },
        results,
      };
    },
  });
}
