import type { FastifyReply } from 'fastify';
import { scopeAllows, type TokenScope } from '../../../app/api-scope.js';
import { html, type Html, type HtmlValue } from './html.js';

/** What a page knows about the viewer: forms carry the CSRF token; bearer clients get no forms. */
export interface Viewer {
  /** Null for a bearer-token client (no session, so no forms). */
  csrf: string | null;
  name: string;
  /** The signed-in token's scope: a read-only viewer sees every page and no action buttons. */
  scope: TokenScope;
}

/** Whether the viewer may act (pause, resume, cancel, reply): a session of a write or admin token. */
export function canChange(viewer: Viewer): boolean {
  return viewer.csrf !== null && scopeAllows(viewer.scope, 'write');
}

/** Where a read-only viewer would see buttons: what they need instead. */
export function readOnlyNote(what: string): Html {
  return html`<p class="muted read-only">Your token has the read scope: ${what} needs a token of scope write (pacer token create --scope write).</p>`;
}

/** Pages load nothing from elsewhere and run no script. */
export const CONTENT_SECURITY_POLICY =
  "default-src 'none'; style-src 'self'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

export function csrfField(viewer: Viewer): Html {
  return html`<input type="hidden" name="_csrf" value="${viewer.csrf ?? ''}">`;
}

export function layout(title: string, viewer: Viewer | null, body: HtmlValue): Html {
  const nav =
    viewer === null
      ? null
      : html`<a href="/">Overview</a><a href="/templates">Templates</a><a href="/senders">Senders</a><a href="/errors">Error codes</a>
${viewer.csrf === null ? null : html`<form method="post" action="/contacts/find">${csrfField(viewer)}<input type="text" name="q" placeholder="Phone, wa_id or contact id" aria-label="Find a contact" required><button type="submit">Find</button></form>`}
<span class="spacer"></span><span>${viewer.name}${viewer.scope === 'read' ? ' (read only)' : ''}</span>
${viewer.csrf === null ? null : html`<form method="post" action="/logout">${csrfField(viewer)}<button type="submit">Sign out</button></form>`}`;
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · Pacer</title><link rel="stylesheet" href="/dashboard.css"></head>
<body><header><strong>Pacer</strong>${nav}</header><main><h1>${title}</h1>${body}</main></body></html>`;
}

export function sendPage(reply: FastifyReply, status: number, page: Html): FastifyReply {
  return reply
    .code(status)
    .header('content-security-policy', CONTENT_SECURITY_POLICY)
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'same-origin')
    .header('cache-control', 'no-store')
    .type('text/html; charset=utf-8')
    .send(page.text);
}

export function notFoundPage(reply: FastifyReply, viewer: Viewer | null, what: string): FastifyReply {
  return sendPage(reply, 404, layout('Not found', viewer, html`<p class="error">${what}</p><p><a href="/">Back to the overview</a></p>`));
}
