import { DAY, type Millis } from '../../../core/time.js';
import type { FailureBucket } from '../../../ports/store.js';
import { count, day } from './format.js';
import { errorLink } from './error-link.js';
import { html, type Html } from './html.js';
import { stackedColumns } from './svg-chart.js';

const SHOWN_CODES = 8;

/** Failures per day by code over `days` days ending today: stacked columns and the same numbers as a table. */
export function failureChart(buckets: readonly FailureBucket[], now: Millis, days: number): Html {
  const first = Math.floor(now / DAY) * DAY - (days - 1) * DAY;
  const totals = new Map<string, number>();
  for (const b of buckets) totals.set(codeKey(b.code), (totals.get(codeKey(b.code)) ?? 0) + b.count);
  if (totals.size === 0) return html`<p class="muted">No failures in the last ${days} days.</p>`;
  const ranked = [...totals.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([k]) => k);
  const shown = ranked.slice(0, SHOWN_CODES);
  const keyOf = (code: number | null) => (shown.includes(codeKey(code)) ? codeKey(code) : 'other');
  const keys = ranked.length > SHOWN_CODES ? [...shown, 'other'] : shown;
  const grid = Array.from({ length: days }, (_, i) => ({ start: first + i * DAY, values: new Map<string, number>() }));
  for (const b of buckets) {
    const cell = grid[Math.floor((b.bucketStart - first) / DAY)];
    if (cell !== undefined) cell.values.set(keyOf(b.code), (cell.values.get(keyOf(b.code)) ?? 0) + b.count);
  }
  const columns = grid.map((g) => ({ label: day(g.start).slice(5), parts: keys.map((key) => ({ key, value: g.values.get(key) ?? 0 })) }));
  const head = keys.map((k) => html`<th class="num">${k === 'other' || k === 'none' ? k : errorLink(Number(k), false)}</th>`);
  const rows = grid
    .filter((g) => g.values.size > 0)
    .map(
      (g) =>
        html`<tr><th>${day(g.start)}</th>${keys.map((k) => html`<td class="num" data-code="${k}">${count(g.values.get(k) ?? 0)}</td>`)}</tr>`,
    );
  return html`${stackedColumns('Failures per day by error code', columns, keys)}
<table class="failures"><thead><tr><th>Day</th>${head}</tr></thead><tbody>${rows}</tbody></table>`;
}

function codeKey(code: number | null): string {
  return code === null ? 'none' : String(code);
}
