import type { FastifyReply, FastifyRequest } from 'fastify';
import { scopeAllows, type ApiScope } from '../../../app/api-scope.js';
import { authenticate, redirectToLogin, sameOrigin, type Authenticated, type AuthDeps, type LockedOut } from './dashboard-auth.js';
import { html } from './html.js';
import { layout, sendPage, type Viewer } from './layout.js';
import { sameCsrf, type Session } from './sessions.js';

export type Form = Record<string, string>;
type PageHandler = (request: FastifyRequest, reply: FastifyReply, viewer: Viewer) => Promise<FastifyReply>;
type ActionHandler = (request: FastifyRequest, reply: FastifyReply, form: Form, viewer: Viewer) => Promise<FastifyReply>;

export interface Guards {
  /** A page: signed in (session or bearer token), else to /login. */
  page(handler: PageHandler): (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply>;
  /**
   * An action: a browser session, its CSRF token, this origin, and a token of at least `scope`
   * (`write` for what changes anything; `read` for finding a contact and signing out).
   */
  action(scope: ApiScope, handler: ActionHandler): (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply>;
}

/** What every page and action checks before its handler runs. */
export function dashboardGuards(auth: AuthDeps): Guards {
  const page: Guards['page'] = (handler: PageHandler) => async (request: FastifyRequest, reply: FastifyReply) => {
    const who = await authenticate(request, auth);
    if (who === null) return redirectToLogin(request, reply);
    if ('lockedOutFor' in who) return lockedOutPage(reply, who);
    return handler(request, reply, who.viewer);
  };
  const action: Guards['action'] = (scope: ApiScope, handler: ActionHandler) => async (request: FastifyRequest, reply: FastifyReply) => {
    const who = await authenticate(request, auth);
    if (who === null) return redirectToLogin(request, reply);
    if ('lockedOutFor' in who) return lockedOutPage(reply, who);
    const form = formOf(request);
    const refusal = csrfRefusal(request, who, form) ?? scopeRefusal(who, scope);
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

  return { page, action };
}

export function lockedOutPage(reply: FastifyReply, who: LockedOut): FastifyReply {
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

export function formOf(request: FastifyRequest): Form {
  const body = request.body;
  if (body === null || typeof body !== 'object') return {};
  return Object.fromEntries(Object.entries(body as Record<string, unknown>).filter((e): e is [string, string] => typeof e[1] === 'string'));
}

function scopeRefusal(who: Authenticated, needed: ApiScope): string | null {
  if (scopeAllows(who.viewer.scope, needed)) return null;
  return `Refused: your token has the ${who.viewer.scope} scope, which can see every page but not change anything; this needs a token of scope ${needed}. Sign in with one (pacer token create --scope ${needed}).`;
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
