import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { queueOneOffMessage } from '../../../app/queue-one-off-message.js';
import { contactPage } from './contact-page.js';
import type { DashboardDeps } from './dashboard-deps.js';
import type { Form, Guards } from './dashboard-guards.js';
import { findContactByQuery } from './find-contact.js';
import { positiveInt } from './format.js';
import { html, type Html } from './html.js';
import { layout, notFoundPage, sendPage, type Viewer } from './layout.js';

/** Finding a contact, its page, and a reply from it. */
export function registerContactRoutes(app: FastifyInstance, deps: DashboardDeps, { page, action }: Guards): void {
  app.post(
    '/contacts/find',
    action('read', async (_request, reply, form, viewer) => {
      const found = await findContactByQuery(deps.store, form['q'] ?? '');
      if (found === null) return notFoundPage(reply, viewer, 'No contact matches that id, phone number, wa_id or user id.');
      return reply.code(303).header('location', `/contacts/${found.id}`).send();
    }),
  );
  app.get(
    '/contacts/:id',
    page(async (request, reply, viewer) => {
      const id = positiveInt((request.params as { id: string }).id);
      const p = id === null ? null : await contactPage(deps, viewer, id, replyNotice((request.query as Record<string, unknown>)['reply']));
      if (p === null) return notFoundPage(reply, viewer, `There is no contact ${(request.params as { id: string }).id}.`);
      return sendPage(reply, 200, layout(p.title, viewer, p.body));
    }),
  );
  app.post(
    '/contacts/:id/reply',
    action('write', async (request, reply, form, viewer) => replyToContact(deps, request, reply, form, viewer)),
  );
}

async function replyToContact(
  deps: DashboardDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  form: Form,
  viewer: Viewer,
): Promise<FastifyReply> {
  const id = positiveInt((request.params as { id: string }).id);
  const contact = id === null ? null : await deps.store.getContact(id);
  if (contact === null) return notFoundPage(reply, viewer, `There is no contact ${(request.params as { id: string }).id}.`);
  const back = html`<p><a href="/contacts/${contact.id}">Back to the contact</a></p>`;
  const text = (form['text'] ?? '').trim();
  const key = form['key'] ?? '';
  const to = contact.phoneE164 ?? (contact.waId === null ? null : `+${contact.waId}`);
  const problem: Html | null =
    deps.phoneNumberId === null
      ? html`Replies need WHATSAPP_PHONE_NUMBER_ID to be configured.`
      : text === ''
        ? html`Write a message first.`
        : !/^[A-Za-z0-9-]{8,64}$/.test(key)
          ? html`The form is out of date: reload the page and send again.`
          : to === null
            ? html`This contact has no phone number or wa_id to reply to.`
            : null;
  if (problem !== null || deps.phoneNumberId === null || to === null)
    return sendPage(reply, 400, layout('Reply not queued', viewer, html`<p class="error">${problem}</p>${back}`));
  const result = await queueOneOffMessage(
    deps.store,
    { to, category: 'service', text, idempotencyKey: `dashboard-reply:${key}`, phoneNumberId: deps.phoneNumberId },
    deps.policy,
    deps.clock.now(),
    deps.signal,
  );
  if (!result.ok)
    return sendPage(
      reply,
      400,
      layout('Reply not queued', viewer, html`<p class="error">The contact's number is not valid (${result.problem}).</p>${back}`),
    );
  const outcome = result.queued ? `${result.decision.kind}:${result.decision.reason}` : 'duplicate';
  return reply.code(303).header('location', `/contacts/${contact.id}?reply=${outcome}`).send();
}

/** The reply's outcome from the redirect's query: only known shapes are turned into a sentence. */
function replyNotice(value: unknown): string | null {
  if (value === 'duplicate') return 'This reply was already queued.';
  if (typeof value !== 'string') return null;
  const m = /^(send|defer|hold|skip):([a-z_]{1,40})$/.exec(value);
  if (m === null) return null;
  return m[1] === 'send'
    ? `Reply queued: the dispatcher sends it next (${m[2] ?? ''}).`
    : `Reply queued, but the decision right now is ${m[1] ?? ''} (${m[2] ?? ''}); see the conversation below.`;
}
