import { codeLabel, findErrorByCode } from '../../../core/error-catalogue/index.js';
import { html, type Html } from './html.js';

/** A code as a link to its page, with its catalogue name; `—` when there is no code. */
export function errorLink(code: number | null, withName = true): Html {
  if (code === null) return html`<span class="muted">—</span>`;
  const entry = findErrorByCode(code);
  const href = `/errors/${entry === undefined ? code : codeLabel(entry)}`;
  return html`<a href="${href}" class="code">${code}</a>${withName && entry !== undefined ? html` <span class="muted">${entry.name}</span>` : null}`;
}
