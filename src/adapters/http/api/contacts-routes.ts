import { z } from 'zod';
import { explainContactNow } from '../../../app/explain-contact-now.js';
import { recordConsent } from '../../../app/record-consent.js';
import { loadContactState } from '../../../app/update-contact-state.js';
import { CATEGORIES } from '../../../core/category.js';
import { iso } from '../../../core/time.js';
import type { Contact, ConsentRecord, TimelineEntry } from '../../../ports/store.js';
import { contactExplainJson } from '../../presenters/contact-explain-json.js';
import { mask } from '../../presenters/mask.js';
import type { ApiDeps } from './api-deps.js';
import { notFound } from './api-error.js';
import { route, type AnyRoute } from './route-table.js';
import { categorySchema, contactJson, contactSchema, decisionSchema, idParams, isoTime, page, pageQuery, paginate } from './schemas.js';

const consentSchema = z.object({
  category: categorySchema,
  status: z.enum(['granted', 'revoked', 'unknown']),
  source: z.string(),
  evidence: z.string().nullable(),
  at: isoTime,
});
const consentJson = (r: ConsentRecord): z.output<typeof consentSchema> => ({
  category: r.category,
  status: r.status,
  source: r.source,
  evidence: r.evidence,
  at: iso(r.at),
});

const consentBody = z.object({
  category: categorySchema,
  status: z.enum(['granted', 'revoked']),
  source: z.string().trim().min(1).max(200).describe('where the consent was given or withdrawn, e.g. checkout-form'),
  evidence: z.string().max(2000).optional().describe('what proves it, e.g. a form submission id'),
});

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

/** Contacts: paged list, one contact with its consent, per-category explanation, timeline, consent changes. */
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
      summary: 'Contacts by id, a page at a time',
      query: pageQuery,
      responses: { 200: { description: 'One page of contacts', schema: page(contactSchema) } },
      handler: ({ query }) => paginate(query.limit, query.after, (after, n) => store.listContacts(after, n), contactJson),
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
        200: { description: 'The contact', schema: contactSchema.extend({ consent: z.record(categorySchema, consentSchema) }) },
        404: { description: 'No such contact' },
      },
      handler: async ({ params }) => {
        const contact = await load(params.id);
        const consent = await store.getConsent(contact.id);
        return {
          ...contactJson(contact),
          consent: Object.fromEntries(CATEGORIES.flatMap((c) => (consent[c] ? [[c, consentJson(consent[c])]] : []))),
        };
      },
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
      summary: 'Record a consent change (history and contact state)',
      params: idParams,
      body: consentBody,
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
