import type { Template, TemplateOutcomeRow } from '../../../ports/store.js';
import type { DashboardDeps } from './dashboard-deps.js';
import { errorLink } from './error-link.js';
import { count, percent, when } from './format.js';
import { html, type Html } from './html.js';
import { qualityBadge } from './overview-page.js';

/** A template failing this share of its attempts (with enough of them to mean something) needs a look. */
const FAILURE_SHARE_ALERT = 0.05;
const MIN_ATTEMPTS = 20;

interface TemplateStats {
  template: Template;
  attempted: number;
  failed: number;
  byCode: Map<number | null, number>;
  problems: string[];
}

export async function templatesPage(deps: DashboardDeps): Promise<Html> {
  const [templates, outcomes] = await Promise.all([deps.store.listTemplates(), deps.store.templateOutcomes()]);
  if (templates.length === 0) return html`<p class="muted">No template is registered yet.</p>`;
  const stats = templates.map((t) =>
    statsFor(
      t,
      outcomes.filter((o) => o.templateId === t.id),
    ),
  );
  // Problem templates first, worst failure rate first.
  stats.sort(
    (a, b) =>
      Number(b.problems.length > 0) - Number(a.problems.length > 0) || rate(b) - rate(a) || a.template.name.localeCompare(b.template.name),
  );
  const rows = stats.map((s) => {
    const t = s.template;
    const codes = [...s.byCode.entries()].sort((a, b) => b[1] - a[1]);
    return html`<tr data-template="${t.id}"${s.problems.length > 0 ? html` class="problem"` : null}>
<td><strong>${t.name}</strong> <span class="muted">${t.language} · ${t.category}</span>${s.problems.length > 0 ? html`<br><span class="badge bad">Needs attention: ${s.problems.join(', ')}</span>` : null}</td>
<td>${t.status}${t.pausedUntil === null ? null : html`<br><span class="muted">until ${when(t.pausedUntil)}</span>`}</td>
<td><span class="badge ${qualityBadge(t.quality)}">${t.quality ?? 'unknown'}</span></td>
<td class="num">${count(s.attempted)}</td><td class="num">${count(s.failed)}</td><td class="num failure-rate">${percent(s.failed, s.attempted)}</td>
<td>${codes.length === 0 ? html`<span class="muted">—</span>` : codes.map(([code, n]) => html`<span class="code-count">${errorLink(code)} × ${count(n)} (${percent(n, s.attempted)})</span><br>`)}</td></tr>`;
  });
  return html`<p>Failure rate counts campaign messages that failed or used up their cap attempts, out of those sent at least once.</p>
<table class="templates"><thead><tr><th>Template</th><th>Status</th><th>Quality</th><th class="num">Attempted</th><th class="num">Failed</th><th class="num">Failure rate</th><th>Failures by code</th></tr></thead><tbody>${rows}</tbody></table>`;
}

function statsFor(template: Template, rows: readonly TemplateOutcomeRow[]): TemplateStats {
  const s: TemplateStats = { template, attempted: 0, failed: 0, byCode: new Map(), problems: [] };
  for (const r of rows) {
    s.attempted += r.count;
    if (r.outcome === 'failed' || r.outcome === 'capped_exhausted') {
      s.failed += r.count;
      s.byCode.set(r.code, (s.byCode.get(r.code) ?? 0) + r.count);
    }
  }
  if (template.status !== 'approved') s.problems.push(`status ${template.status}`);
  if (qualityBadge(template.quality) === 'bad' || qualityBadge(template.quality) === 'warn')
    s.problems.push(`quality ${template.quality ?? ''}`);
  if (s.attempted >= MIN_ATTEMPTS && s.failed / s.attempted >= FAILURE_SHARE_ALERT)
    s.problems.push(`${percent(s.failed, s.attempted)} failed`);
  return s;
}

function rate(s: TemplateStats): number {
  return s.attempted === 0 ? 0 : s.failed / s.attempted;
}
