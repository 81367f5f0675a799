import { html, type Html } from './html.js';

export function loginPage(next: string, problem: string | null): Html {
  return html`${problem === null ? null : html`<p class="error" role="alert">${problem}</p>`}
<form method="post" action="/login" class="login">
<input type="hidden" name="next" value="${next}">
<p><label for="token">API token (from <code>pacer token create</code>) or the admin token</label><br>
<input type="password" id="token" name="token" autocomplete="current-password" size="60" required></p>
<p><button type="submit">Sign in</button></p></form>`;
}

/** Only a path on this server: never an absolute URL or `//host` (an open redirect). */
export function safeNext(value: unknown): string {
  if (typeof value !== 'string' || !value.startsWith('/') || value.startsWith('//') || value.includes('\\')) return '/';
  return value;
}
