import type { CountryCode } from 'libphonenumber-js/max';
import { z } from 'zod';
import type { FieldError } from '../../../app/contact-row.js';
import { updateContact } from '../../../app/update-contact.js';
import { upsertContactRows } from '../../../app/upsert-contact-rows.js';
import type { ApiDeps } from './api-deps.js';
import { ApiError, notFound, type Issue } from './api-error.js';
import {
  COUNTRY_PARAMETER,
  contactDetail,
  contactDetailSchema,
  contactPatchBody,
  contactUpsertBody,
  defaultCountryQuery,
} from './contact-schemas.js';
import { route, type AnyRoute } from './route-table.js';
import { idParams } from './schemas.js';

/** The consent source recorded for a statement that names none (every API statement names one). */
export const API_CONSENT_SOURCE = 'api';

export const writeQuery = z.object({ default_country: defaultCountryQuery });

export const fieldIssues = (errors: readonly FieldError[]): Issue[] =>
  errors.map((e) => ({ path: e.field ?? '(root)', message: e.reason }));

function refused(status: number, code: string, what: string, errors: readonly FieldError[]): ApiError {
  const issues = fieldIssues(errors);
  return new ApiError(status, code, `${what}: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`, issues);
}

/** Writes to one contact: upsert by any of its identifiers, and a change by id. */
export function contactWriteRoutes(deps: ApiDeps): AnyRoute[] {
  const { store, policy, clock } = deps;
  return [
    route({
      method: 'POST',
      url: '/contacts',
      scope: 'write',
      operationId: 'upsertContact',
      tag: 'contacts',
      summary: 'Create or update one contact (matched by wa_id, business-scoped id or phone), with tags, attributes and consent',
      query: writeQuery,
      body: contactUpsertBody,
      idempotent: true,
      responses: {
        200: { description: 'An existing contact, updated (or already as stated)', schema: contactDetailSchema },
        201: { description: 'A new contact', schema: contactDetailSchema },
        409: { description: 'The identifiers belong to two different contacts; `issues` names whose each is' },
      },
      handler: async ({ query, body, reply }) => {
        const [outcome] = await upsertContactRows(store, [body], {
          defaultCountry: (query.default_country ?? null) as CountryCode | null,
          countryOption: COUNTRY_PARAMETER,
          policy,
          now: clock.now(),
          source: API_CONSENT_SOURCE,
        });
        if (outcome === undefined) throw new Error('upsertContactRows gave no outcome for the row');
        if (outcome.status === 'error') {
          throw outcome.kind === 'invalid'
            ? refused(400, 'invalid_body', 'the request body is not valid', outcome.errors)
            : refused(409, 'contact_conflict', 'the contact cannot be written', outcome.errors);
        }
        const contact = await store.getContact(outcome.contactId);
        if (contact === null) throw new Error(`contact ${outcome.contactId} vanished after its upsert`);
        return reply.code(outcome.status === 'created' ? 201 : 200).send(await contactDetail(store, contact));
      },
    }),
    route({
      method: 'PATCH',
      url: '/contacts/:id',
      scope: 'write',
      operationId: 'updateContact',
      tag: 'contacts',
      summary: 'Change one contact: name, attributes merged (null removes a key), tags added and removed',
      params: idParams,
      body: contactPatchBody,
      responses: {
        200: { description: 'The contact as it is now', schema: contactDetailSchema },
        404: { description: 'No such contact' },
      },
      handler: async ({ params, body }) => {
        const result = await updateContact(
          store,
          params.id,
          {
            ...(body.name === undefined ? {} : { name: body.name }),
            ...(body.attributes === undefined ? {} : { attributes: body.attributes }),
            ...(body.tags?.add === undefined ? {} : { tagsAdd: body.tags.add }),
            ...(body.tags?.remove === undefined ? {} : { tagsRemove: body.tags.remove }),
          },
          clock.now(),
        );
        if (result === null) throw notFound(`contact ${params.id}`);
        if (!result.ok) throw refused(400, 'invalid_body', 'the request body is not valid', result.errors);
        return contactDetail(store, result.contact);
      },
    }),
  ];
}
