import type { FastifyPluginAsync } from 'fastify';
import { registerCampaignRoutes } from './campaign-routes.js';
import { registerContactRoutes } from './contact-routes.js';
import { DASHBOARD_CSS } from './dashboard-css.js';
import type { DashboardDeps } from './dashboard-deps.js';
import { dashboardGuards } from './dashboard-guards.js';
import { errorIndexPage, errorPage, findEntryForLabel } from './error-pages.js';
import { html } from './html.js';
import { layout, notFoundPage, sendPage } from './layout.js';
import { registerLoginRoutes } from './login-routes.js';
import { overviewPage } from './overview-page.js';
import { sendersPage } from './senders-page.js';
import { SessionStore } from './sessions.js';
import { templatesPage } from './templates-page.js';

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

  const guards = dashboardGuards(auth);
  const { page } = guards;
  app.get('/dashboard.css', async (_request, reply) =>
    reply.type('text/css; charset=utf-8').header('cache-control', 'max-age=300').send(DASHBOARD_CSS),
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
    '/senders',
    page(async (_request, reply, viewer) => sendPage(reply, 200, layout('Senders', viewer, await sendersPage(deps)))),
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

  registerLoginRoutes(app, deps, auth, guards);
  registerCampaignRoutes(app, deps, guards);
  registerContactRoutes(app, deps, guards);
};
