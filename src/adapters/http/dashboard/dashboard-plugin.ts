import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { checkApiToken } from '../../../app/api-tokens.js';
import { CampaignActionError, campaignAction } from '../../../app/campaign-actions.js';
import { queueOneOffMessage } from '../../../app/queue-one-off-message.js';
import { campaignPage } from './campaign-page.js';
import { contactPage } from './contact-page.js';
import { DASHBOARD_CSS } from './dashboard-css.js';
import type { DashboardDeps } from './dashboard-deps.js';
import { authenticate, redirectToLogin, sameOrigin, type Authenticated, type LockedOut } from './dashboard-auth.js';
import { errorIndexPage, errorPage, findEntryForLabel } from './error-pages.js';
import { findContactByQuery } from './find-contact.js';
import { positiveInt } from './format.js';
import { html, type Html } from './html.js';
import { layout, notFoundPage, sendPage, type Viewer } from './layout.js';
import { loginPage, safeNext } from './login-page.js';
import { overviewPage } from './overview-page.js';
import { clearedCookie, principalFor, sameCsrf, sessionCookie, SessionStore, type Session } from './sessions.js';
import { templatesPage } from './templates-page.js';

type Form = Record<string, string>;
type PageHandler = (request: FastifyRequest, reply: FastifyReply, viewer: Viewer) => Promise<FastifyReply>;
type ActionHandler = (request: FastifyRequest, reply: FastifyReply, form: Form, viewer: Viewer) => Promise<FastifyReply>;

const LOGIN_REFUSALS = {
  missing: 'Enter a token.',
  malformed: 'That is not a token: paste it without spaces.',
  unknown: 'That token is not valid. Create one with pacer token create, or use the admin token.',
  revoked: 'That token was revoked. Ask for a new one (pacer token create).',
} as const;

/**
 * The operator dashboard: server-rendered pages (no script, strict content-security policy) on the
 * same server and behind the same tokens as the REST API. Browsers sign in once with a token and
 * get an HttpOnly, SameSite=Strict session cookie; forms carry a CSRF token and must come from
 * this origin.
 */
export const dashboard: FastifyPluginAsync<DashboardDeps> = async (app, deps) => {
  const sessions = new SessionStore();
  // Guessing a token, through the form or as a bearer token, spends the address's tries, which the
  // REST API shares (ten at once, then one every 6 s by default).
  const failures = app.pacerAuthFailures;
  const auth = { store: deps.store, clock: deps.clock, adminToken: deps.adminToken, sessions, failures };

  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 64 * 1024 }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(String(body))));
  });
  app.setErrorHandler((error, request, reply) => {
    request.log.error({ err: error }, 'dashboard page failed');
    const status = typeof (error as { statusCode?: unknown }).statusCode === 'number' ? (error as { statusCode: number }).statusCode : 500;
    const message = status < 500 ? 'The request could not be read.' : 'Something went wrong on the server; the log has the details.';
    return sendPage(reply, status, layout('Error', null, html`<p class="error">${message}</p>`));
  });

  const page = (handler: PageHandler) => async (request: FastifyRequest, reply: FastifyReply) => {
    const who = await authenticate(request, auth);
    if (who === null) return redirectToLogin(request, reply);
    if ('lockedOutFor' in who) return lockedOutPage(reply, who);
    return handler(request, reply, who.viewer);
  };
  const action = (handler: ActionHandler) => async (request: FastifyRequest, reply: FastifyReply) => {
    const who = await authenticate(request, auth);
    if (who === null) return redirectToLogin(request, reply);
    if ('lockedOutFor' in who) return lockedOutPage(reply, who);
    const form = formOf(request);
    const refusal = csrfRefusal(request, who, form);
    if (refusal !== null) {
      request.log.warn({ reason: refusal }, 'dashboard action refused');
      return sendPage(
        reply,
        403,
        layout('Refused', who.viewer, html`<p class="error">${refusal}</p><p><a href="/">Back to the overview</a></p>`),
      );
    }
    return handler(request, reply, form, who.viewer);
  };

  app.get('/dashboard.css', async (_request, reply) =>
    reply.type('text/css; charset=utf-8').header('cache-control', 'max-age=300').send(DASHBOARD_CSS),
  );

  app.get('/login', async (request, reply) => {
    const next = safeNext((request.query as Record<string, unknown>)['next']);
    const who = await authenticate(request, auth);
    if (who !== null && 'session' in who && who.session !== null) return reply.code(303).header('location', next).send();
    return sendPage(reply, 200, layout('Sign in', null, loginPage(next, null)));
  });
  app.post('/login', async (request, reply) => {
    const form = formOf(request);
    const next = safeNext(form['next']);
    if (!sameOrigin(request))
      return sendPage(reply, 403, layout('Sign in', null, loginPage(next, 'Sign-in refused: the form was not sent from this server.')));
    const lockout = failures.attempt(request.ip, 'sign_in');
    if (!lockout.ok) {
      return sendPage(
        reply.header('retry-after', String(lockout.retryAfterSeconds)),
        429,
        layout(
          'Sign in',
          null,
          loginPage(next, `Too many sign-in attempts from this address; try again in ${lockout.retryAfterSeconds} s.`),
        ),
      );
    }
    const token = (form['token'] ?? '').trim();
    const check = await checkApiToken(deps.store, token === '' ? undefined : `Bearer ${token}`, deps.adminToken);
    if (!check.ok) {
      request.log.info({ reason: check.reason }, 'dashboard sign-in refused');
      return sendPage(reply, 401, layout('Sign in', null, loginPage(next, LOGIN_REFUSALS[check.reason])));
    }
    failures.succeeded(request.ip);
    const { id } = sessions.create(principalFor(check.principal, token), deps.clock.now());
    return reply
      .code(303)
      .header('set-cookie', sessionCookie(id, request.protocol === 'https'))
      .header('location', next)
      .send();
  });
  app.post(
    '/logout',
    action(async (request, reply) => {
      const who = await authenticate(request, auth);
      sessions.delete(who !== null && 'sessionId' in who ? (who.sessionId ?? undefined) : undefined);
      return reply.code(303).header('set-cookie', clearedCookie()).header('location', '/login').send();
    }),
  );

  app.get(
    '/',
    page(async (_request, reply, viewer) => sendPage(reply, 200, layout('Overview', viewer, await overviewPage(deps)))),
  );
  app.get(
    '/templates',
    page(async (_request, reply, viewer) => sendPage(reply, 200, layout('Templates', viewer, await templatesPage(deps)))),
  );
  app.get(
    '/errors',
    page(async (_request, reply, viewer) => sendPage(reply, 200, layout('Error codes', viewer, errorIndexPage()))),
  );
  app.get(
    '/errors/:code',
    page(async (request, reply, viewer) => {
      const label = (request.params as { code: string }).code;
      const entry = findEntryForLabel(label);
      if (entry === undefined) return notFoundPage(reply, viewer, `Error code ${label} is not in the catalogue.`);
      const p = errorPage(entry);
      return sendPage(reply, 200, layout(p.title, viewer, p.body));
    }),
  );

  app.get(
    '/campaigns/:id',
    page(async (request, reply, viewer) => {
      const id = positiveInt((request.params as { id: string }).id);
      const query = request.query as Record<string, unknown>;
      const done = query['done'];
      const notice =
        done === 'pause' ? 'Campaign paused.' : done === 'resume' ? 'Campaign resumed.' : done === 'cancel' ? 'Campaign cancelled.' : null;
      const p =
        id === null
          ? null
          : await campaignPage(deps, viewer, id, {
              retriesAfter: positiveInt(query['retriesAfter']) ?? 0,
              heldAfter: positiveInt(query['heldAfter']) ?? 0,
              notice,
            });
      if (p === null) return notFoundPage(reply, viewer, `There is no campaign ${(request.params as { id: string }).id}.`);
      return sendPage(reply, 200, layout(p.title, viewer, p.body));
    }),
  );
  app.post(
    '/campaigns/:id/:action',
    action(async (request, reply, form, viewer) => {
      const params = request.params as { id: string; action: string };
      const id = positiveInt(params.id);
      const verb = params.action;
      if (id === null || (verb !== 'pause' && verb !== 'resume' && verb !== 'cancel'))
        return notFoundPage(reply, viewer, 'No such campaign action.');
      if (verb === 'cancel' && form['confirm'] !== 'yes')
        return sendPage(
          reply,
          400,
          layout(
            'Not cancelled',
            viewer,
            html`<p class="error">Tick the confirmation to cancel the campaign.</p><p><a href="/campaigns/${id}">Back to the campaign</a></p>`,
          ),
        );
      try {
        await campaignAction(
          deps.store,
          id,
          verb,
          deps.clock.now(),
          verb === 'pause' ? `paused by ${viewer.name} from the dashboard` : undefined,
        );
      } catch (error) {
        if (!(error instanceof CampaignActionError)) throw error;
        const missing = (await deps.store.getCampaign(id)) === null;
        if (missing) return notFoundPage(reply, viewer, `There is no campaign ${id}.`);
        return sendPage(
          reply,
          409,
          layout('Not done', viewer, html`<p class="error">${error.message}</p><p><a href="/campaigns/${id}">Back to the campaign</a></p>`),
        );
      }
      return reply.code(303).header('location', `/campaigns/${id}?done=${verb}`).send();
    }),
  );

  app.post(
    '/contacts/find',
    action(async (_request, reply, form, viewer) => {
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
    action(async (request, reply, form, viewer) => replyToContact(deps, request, reply, form, viewer)),
  );
};

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

function lockedOutPage(reply: FastifyReply, who: LockedOut): FastifyReply {
  return sendPage(
    reply.header('retry-after', String(who.lockedOutFor)),
    429,
    layout(
      'Too many attempts',
      null,
      html`<p class="error">Too many failed sign-ins from this address; try again in ${who.lockedOutFor} s.</p>`,
    ),
  );
}

function formOf(request: FastifyRequest): Form {
  const body = request.body;
  if (body === null || typeof body !== 'object') return {};
  return Object.fromEntries(Object.entries(body as Record<string, unknown>).filter((e): e is [string, string] => typeof e[1] === 'string'));
}

/** Actions need the browser session (not a bearer token), its CSRF token, and this origin. */
function csrfRefusal(request: FastifyRequest, who: Authenticated, form: Form): string | null {
  const session: Session | null = who.session;
  if (session === null) return 'Actions need a signed-in browser session: sign in through /login.';
  if (!sameOrigin(request)) return 'Refused: the form was not sent from this server.';
  if (!sameCsrf(form['_csrf'], session.csrf))
    return 'Refused: the form is missing its security token or it is out of date. Reload the page and try again.';
  return null;
}
