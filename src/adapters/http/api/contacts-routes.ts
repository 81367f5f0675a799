import { z } from 'zod';
import { explainContactNow } from '../../../app/explain-contact-now.js';
import { recordConsent } from '../../../app/record-consent.js';
import { loadContactState } from '../../../app/update-contact-state.js';
import { iso } from '../../../core/time.js';
import type { Contact, TimelineEntry } from '../../../ports/store.js';
import { contactExplainJson } from '../../presenters/contact-explain-json.js';
import { mask } from '../../presenters/mask.js';
import type { ApiDeps } from './api-deps.js';
import { notFound } from './api-error.js';
import { consentChangeBody, consentJson, consentSchema, contactDetail, contactDetailSchema } from './contact-schemas.js';
import { contactListQuery, listContacts } from './contact-list.js';
import { route, type AnyRoute } from './route-table.js';
import { categorySchema, contactSchema, decisionSchema, idParams, isoTime, page } from './schemas.js';

const explainSchema = z.object({
  contact: z.string().describe('masked phone number or id'),
  categories: z.record(
    categorySchema,
    decisionSchema.extend({
      path: z.string().optional(),
      causes: z.array(z.object({ eventId: z.string(), type: z.string(), at: isoTime, detail: z.string().nullable() })),
    }),
  ),
});

const timelineItem = z
  .object({
    type: z.enum(['consent', 'decision', 'message_event']),
    at: isoTime,
  })
  .loose();

function timelineJson(e: TimelineEntry): z.output<typeof timelineItem> {
  return { ...e, at: iso(e.at) };
}

/** Contacts: paged list and lookup, one contact with its consent, per-category explanation, timeline, consent changes. */
export function contactRoutes(deps: ApiDeps): AnyRoute[] {
  const { store, policy, clock } = deps;
  const load = async (id: number): Promise<Contact> => (await store.getContact(id)) ?? Promise.reject(notFound(`contact ${id}`));
  return [
    route({
      method: 'GET',
      url: '/contacts',
      scope: 'read',
      operationId: 'listContacts',
      tag: 'contacts',
      summary: 'Contacts by id, a page at a time; or the ones with a phone number, wa_id, business-scoped id or tag',
      query: contactListQuery,
      responses: { 200: { description: 'One page of contacts', schema: page(contactSchema) } },
      handler: ({ query }) => listContacts(store, query),
    }),
    route({
      method: 'GET',
      url: '/contacts/:id',
      scope: 'read',
      operationId: 'getContact',
      tag: 'contacts',
      summary: 'One contact with its current consent per category',
      params: idParams,
      responses: {
        200: { description: 'The contact', schema: contactDetailSchema },
        404: { description: 'No such contact' },
      },
      handler: async ({ params }) => contactDetail(store, await load(params.id)),
    }),
    route({
      method: 'GET',
      url: '/contacts/:id/explain',
      scope: 'read',
      operationId: 'explainContact',
      tag: 'contacts',
      summary: 'Per category: would Pacer send now, and if not why and until when',
      params: idParams,
      responses: {
        200: { description: 'Decision per category, with the events behind it', schema: explainSchema },
        404: { description: 'No such contact' },
      },
      handler: async ({ params }) => {
        const contact = await load(params.id);
        const rows = explainContactNow(contact, await loadContactState(store, contact.id), clock.now(), policy);
        return contactExplainJson(mask(contact.phoneE164 ?? contact.waId ?? contact.bsuid ?? String(contact.id)), rows);
      },
    }),
    route({
      method: 'GET',
      url: '/contacts/:id/timeline',
      scope: 'read',
      operationId: 'contactTimeline',
      tag: 'contacts',
      summary: 'Consent changes, decisions and delivery events, newest first',
      params: idParams,
      query: z.object({ limit: z.coerce.number().int().min(1).max(500).default(100).describe('how many entries, 1-500') }),
      responses: {
        200: { description: 'Newest first', schema: z.object({ items: z.array(timelineItem) }) },
        404: { description: 'No such contact' },
      },
      handler: async ({ params, query }) => {
        const contact = await load(params.id);
        return { items: (await store.contactTimeline(contact.id, query.limit)).map(timelineJson) };
      },
    }),
    route({
      method: 'POST',
      url: '/contacts/:id/consent',
      scope: 'write',
      operationId: 'recordConsent',
      tag: 'contacts',
      summary: 'Record a consent change for one category (history and contact state), with its source and evidence',
      params: idParams,
      body: consentChangeBody,
      responses: {
        200: {
          description: 'The recorded change and the consent now in force',
          schema: z.object({ recorded: consentSchema, current: consentSchema }),
        },
        404: { description: 'No such contact' },
      },
      handler: async ({ params, body }) => {
        const contact = await load(params.id);
        const now = clock.now();
        const recorded = await recordConsent(
          store,
          contact.id,
          { category: body.category, status: body.status, source: body.source, evidence: body.evidence ?? null },
          policy,
          now,
        );
        const current = (await store.getConsent(contact.id))[body.category] ?? recorded;
        return { recorded: consentJson(recorded), current: consentJson(current) };
      },
    }),
  ];
}
