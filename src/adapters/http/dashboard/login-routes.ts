import type { FastifyInstance } from 'fastify';
import { checkApiToken } from '../../../app/api-tokens.js';
import { authenticate, sameOrigin, type AuthDeps } from './dashboard-auth.js';
import type { DashboardDeps } from './dashboard-deps.js';
import { formOf, type Guards } from './dashboard-guards.js';
import { layout, sendPage } from './layout.js';
import { loginPage, safeNext } from './login-page.js';
import { clearedCookie, principalFor, sessionCookie } from './sessions.js';

const LOGIN_REFUSALS = {
  missing: 'Enter a token.',
  malformed: 'That is not a token: paste it without spaces.',
  unknown: 'That token is not valid. Create one with pacer token create, or use the admin token.',
  revoked: 'That token was revoked. Ask for a new one (pacer token create).',
} as const;

/** Sign-in with a token (the form), and sign-out. */
export function registerLoginRoutes(app: FastifyInstance, deps: DashboardDeps, auth: AuthDeps, { action }: Guards): void {
  const { sessions, failures } = auth;
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
    action('read', async (request, reply) => {
      const who = await authenticate(request, auth);
      sessions.delete(who !== null && 'sessionId' in who ? (who.sessionId ?? undefined) : undefined);
      return reply.code(303).header('set-cookie', clearedCookie()).header('location', '/login').send();
    }),
  );
}
