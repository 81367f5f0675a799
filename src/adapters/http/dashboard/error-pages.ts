import {
  codeLabel,
  describeApi,
  describeRetry,
  ERROR_CATALOGUE,
  errorFacts,
  findErrorByCode,
} from '../../../core/error-catalogue/index.js';
import { classSummary, classTitle } from '../../../core/error-class-label.js';
import { ERROR_CLASSES } from '../../../core/error-class.js';
import type { ErrorEntry } from '../../../core/error-entry.js';
import { html, type Html } from './html.js';

/** The catalogue by class, as `docs/errors` has it, with links to each code's page. */
export function errorIndexPage(): Html {
  return html`${ERROR_CLASSES.map((cls) => {
    const members = ERROR_CATALOGUE.filter((e) => e.class === cls).sort((a, b) => a.code - b.code);
    if (members.length === 0) return null;
    return html`<h2>${classTitle(cls)}</h2><p>${classSummary(cls)}. Class <code>${cls}</code>.</p>
<table><thead><tr><th>Code</th><th>Name</th><th>API</th><th>Retry</th></tr></thead><tbody>
${members.map((e) => html`<tr><td><a href="/errors/${codeLabel(e)}">${codeLabel(e)}</a></td><td>${e.name}</td><td>${describeApi(e.api)}</td><td>${describeRetry(e.retry)}</td></tr>`)}</tbody></table>`;
  })}`;
}

/** `131049`, or a range's label `200-299`, or any code inside a range. */
export function findEntryForLabel(label: string): ErrorEntry | undefined {
  const match = /^(\d{1,9})(?:-(\d{1,9}))?$/.exec(label);
  if (match === null) return undefined;
  const entry = findErrorByCode(Number(match[1]));
  if (entry === undefined) return undefined;
  return match[2] === undefined || codeLabel(entry) === label ? entry : undefined;
}

export function errorPage(entry: ErrorEntry): { title: string; body: Html } {
  const facts = errorFacts(entry, (c) => c);
  const body = html`<table class="facts"><tbody>${facts.map(([k, v]) => html`<tr><th>${k}</th><td>${v}</td></tr>`)}</tbody></table>
<h2>What Meta is telling you</h2><p class="meaning">${entry.page.meaning}</p>
<h2>Why it happens</h2><p>${entry.page.cause}</p>
<h2>Should you retry?</h2><p>${entry.page.retry}</p>
<h2>What to do</h2><p>${entry.page.action}</p>
<h2>Meta's wording</h2><ul>${entry.messages.map((m) => html`<li>“${m}”</li>`)}</ul>
<p><a href="/errors">All error codes</a></p>`;
  return { title: `${codeLabel(entry)}: ${entry.name}`, body };
}
