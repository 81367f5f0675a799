import type { StrategyMetrics } from './demo-metrics.js';
import type { Assumption } from './world-assumptions.js';
import type { ContactStory } from './contact-story.js';

/** One strategy's column: its name and its figures. */
export interface Column {
  name: string;
  metrics: StrategyMetrics;
}

export interface Row {
  label: string;
  /** One value per column, in the columns' order. */
  values: Array<number | string>;
  /** Which way is better, for the marker in the table. */
  better: 'higher' | 'lower' | 'none';
  /** Shown as a share of these (each column's own), and compared by that share. */
  of?: number[];
  /** Shown as money (USD). */
  money?: boolean;
  /** Drawn as a chart in the report. */
  chart?: boolean;
}

export function comparisonRows(columns: readonly Column[]): Row[] {
  const m = columns.map((c) => c.metrics);
  const v = (pick: (x: StrategyMetrics) => number | string) => m.map(pick);
  const delivered = v((x) => x.delivered) as number[];
  return [
    { label: 'delivered messages', values: delivered, better: 'higher', chart: true },
    { label: 'read', values: v((x) => x.read), better: 'higher' },
    { label: 'people reached by the campaign', values: v((x) => x.marketingReach), better: 'higher', chart: true },
    { label: '131049 failures', values: v((x) => x.caps131049), better: 'lower', chart: true },
    { label: 'retries spent', values: v((x) => x.retriesSpent), better: 'lower', chart: true },
    { label: 'contacts wrongly suppressed', values: v((x) => x.wronglySuppressed), better: 'lower', chart: true },
    { label: 'utility delivered to capped contacts', values: v((x) => x.utilityToCapped), better: 'higher', chart: true },
    { label: 'blocks and reports', values: v((x) => x.blocksAndReports), better: 'lower', chart: true },
    { label: 'messages delivered at night', values: v((x) => x.deliveredAtNight), better: 'lower', of: delivered, chart: true },
    { label: 'delivered more than 24 h late', values: v((x) => x.deliveredOver24hLate), better: 'lower', of: delivered, chart: true },
    { label: 'lowest quality rating during the run', values: v((x) => x.lowestQuality), better: 'none' },
    { label: 'quality rating at the end', values: v((x) => x.quality), better: 'none' },
    { label: 'billable deliveries', values: v((x) => x.billable), better: 'none' },
    { label: 'cost of billable deliveries (USD)', values: v((x) => x.cost), better: 'none', money: true, chart: true },
    { label: 'API requests', values: v((x) => x.requests), better: 'lower' },
  ];
}

/** A cell as shown: `12,345`, `$1,234.50`, or `12,345 (9.1%)` for a row shown as a share. */
function cell(r: Row, i: number): string {
  const v = r.values[i];
  if (typeof v !== 'number') return v ?? '';
  if (r.money === true) return `$${v.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
  const of = r.of?.[i];
  return of === undefined ? v.toLocaleString('en-US') : `${v.toLocaleString('en-US')} (${percent(v, of)})`;
}

function percent(v: number, of: number): string {
  return of === 0 ? '–' : `${((100 * v) / of).toFixed(1)}%`;
}

/** The columns that win a row (all tied best), none when every column is equal or the row has no better way. */
export function winners(r: Row): number[] {
  if (r.better === 'none' || r.values.some((v) => typeof v !== 'number')) return [];
  // A share row compares shares: fewer night deliveries out of fewer deliveries is no win, and a
  // column with nothing to share (nothing delivered) has no share at all, so it neither wins nor sets the bar.
  const scored = r.values.flatMap((v, i) => {
    if (r.of === undefined) return [{ i, score: v as number }];
    const of = r.of[i] ?? 0;
    return of > 0 ? [{ i, score: (v as number) / of }] : [];
  });
  if (scored.length < 2) return [];
  const best = (r.better === 'higher' ? Math.max : Math.min)(...scored.map((s) => s.score));
  const won = scored.filter((s) => s.score === best).map((s) => s.i);
  return won.length === scored.length ? [] : won;
}

/** The terminal table, with the winners of each row named at its end. */
export function renderTable(names: readonly string[], rows: readonly Row[]): string {
  const w0 = Math.max(...rows.map((r) => r.label.length));
  const widths = names.map((n, i) => Math.max(5, n.length, ...rows.map((r) => cell(r, i).length)));
  const head = `${''.padEnd(w0)}  ${names.map((n, i) => n.padStart(widths[i]!)).join('  ')}`;
  const lines = rows.map((r) => {
    const won = winners(r);
    const mark = won.length === 0 ? '' : `  ◀ ${won.map((i) => names[i]).join(', ')}`;
    return `${r.label.padEnd(w0)}  ${names.map((_, i) => cell(r, i).padStart(widths[i]!)).join('  ')}${mark}`;
  });
  return [head, '-'.repeat(head.length), ...lines].join('\n');
}

const esc = (s: string) => s.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

const COLORS = ['#2f80ed', '#d64545', '#f2994a', '#27ae60', '#9b51e0', '#56ccf2', '#7b8794', '#e0b400'];
const color = (i: number) => COLORS[i % COLORS.length]!;

export interface ReportContent {
  title: string;
  subtitle: string;
  /** What the caller said of the audience before the run (the file as read, warnings), under the subtitle. */
  about?: readonly string[];
  columns: readonly Column[];
  /** What each column's strategy does and where that is documented. */
  describes: readonly string[];
  rows: readonly Row[];
  sample?: readonly string[];
  footnote?: readonly string[];
  stories?: readonly ContactStory[];
  assumptions?: readonly Assumption[];
  /** The price table, as rows of country, marketing and utility rate. */
  prices?: { source: string; rows: ReadonlyArray<[string, number, number]> };
  /** Simulated days (default 7), for the stories' heading. */
  days?: number;
}

/** The simulated span in words: "week" for the demo's seven days. */
export function spanOf(days: number): string {
  return days === 7 ? 'week' : days === 1 ? 'day' : `${days} days`;
}

/** "1 simulated day", "7 simulated days". */
export function simulatedDays(days: number): string {
  return `${days} simulated day${days === 1 ? '' : 's'}`;
}

/** A self-contained HTML page (no network): the table, a chart per row that matters, drawn as inline SVG. */
export function renderHtml(c: ReportContent): string {
  const names = c.columns.map((x) => x.name);
  const table = c.rows
    .map((r) => {
      const won = winners(r);
      return `<tr><th>${esc(r.label)}</th>${names.map((_, i) => `<td${won.includes(i) ? ' class="win"' : ''}>${esc(cell(r, i))}</td>`).join('')}</tr>`;
    })
    .join('');
  const legend = `<p class="legend">${names.map((n, i) => `<span style="background:${color(i)}"></span>${esc(n)}: ${esc(c.describes[i] ?? '')}`).join('<br>')}</p>`;
  const rowCharts = c.rows
    .filter((r) => r.chart === true)
    .map((r) => `<figure class="row-chart"><figcaption>${esc(r.label)}</figcaption>${hbars(names, r)}</figure>`)
    .join('\n');
  const m = c.columns.map((x) => x.metrics);
  const sample = c.sample ?? [];
  const stories = c.stories ?? [];
  const assumptions = c.assumptions ?? [];
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${esc(c.title)}</title><style>
body{font:15px/1.5 system-ui,sans-serif;margin:2rem auto;max-width:1100px;color:#1f2933}
table{border-collapse:collapse;margin:1rem 0}th,td{padding:.3rem .8rem;border-bottom:1px solid #e4e7eb;text-align:right}
th{text-align:left;font-weight:500}td.win{background:#e3f9e5;font-weight:600}.legend span{display:inline-block;width:12px;height:12px;margin:0 .3rem 0 0}
figure{margin:2rem 0}figcaption{font-weight:600;margin-bottom:.5rem}.bubble{background:#dcf8c6;border-radius:8px;padding:.6rem .9rem;max-width:32rem;margin:0}
td.src{text-align:left}
</style></head><body><h1>${esc(c.title)}</h1><p>${esc(c.subtitle)}</p>${(c.about ?? []).map((line) => `<p>${esc(line)}</p>`).join('')}
${legend}
<table id="comparison"><thead><tr><th></th>${names.map((n) => `<th>${esc(n)}</th>`).join('')}</tr></thead><tbody>${table}</tbody></table>
<p>Green: the best of the row (a share row compares shares).</p>${(c.footnote ?? []).map((l) => `<p>${esc(l)}</p>`).join('')}
<figure><figcaption>Delivered messages per day</figcaption>${bars(m.map((x) => x.daily.map((d) => d.delivered)))}</figure>
<figure><figcaption>131049 (per-user cap) failures per day</figcaption>${bars(m.map((x) => x.daily.map((d) => d.caps)))}</figure>
${rowCharts}
${stories.length === 0 ? '' : `<h2>One contact's ${esc(spanOf(c.days ?? 7))}</h2><p>The same person (${esc(stories[0]!.contact)}) under each strategy, from the simulator's ground truth.</p><ul id="stories">${stories.map((s) => `<li><strong>${esc(s.strategy)}</strong>: ${esc(s.story)}</li>`).join('')}</ul>`}
${sample.length === 0 ? '' : `<figure><figcaption>One message of the campaign, as its recipient read it</figcaption><blockquote class="bubble">${sample.map(esc).join('<br>')}</blockquote></figure>`}
${assumptions.length === 0 ? '' : `<h2>What the simulated world assumes</h2><p>Every figure above comes from a simulator, not from Meta. “Meta” marks what Meta documents; “ours” is a modelling choice.</p><table id="assumptions"><thead><tr><th>topic</th><th>assumption</th><th>from</th></tr></thead><tbody>${assumptions.map((a) => `<tr><th>${esc(a.topic)}</th><td class="src">${esc(a.says)}</td><td class="src">${a.from === 'meta' ? `Meta${a.where === undefined ? '' : ` (${esc(a.where)})`}` : `ours${a.where === undefined ? '' : ` (${esc(a.where)})`}`}</td></tr>`).join('')}</tbody></table>`}
${c.prices === undefined ? '' : `<h2>Prices</h2><p>${esc(c.prices.source)}</p><table id="prices"><thead><tr><th>country</th><th>marketing</th><th>utility</th></tr></thead><tbody>${c.prices.rows.map(([k, mk, ut]) => `<tr><th>${esc(k)}</th><td>$${mk.toFixed(4)}</td><td>$${ut.toFixed(4)}</td></tr>`).join('')}</tbody></table>`}
</body></html>`;
}

/** One horizontal bar per strategy for one row of the table. */
function hbars(names: readonly string[], r: Row): string {
  const vals = r.values.map((v, i) => (typeof v === 'number' ? (r.of === undefined ? v : v / Math.max(1, r.of[i] ?? 0)) : 0));
  const max = Math.max(1e-9, ...vals);
  const W = 900,
    bh = 22,
    label = 230,
    H = names.length * (bh + 6);
  const won = winners(r);
  const bars = names
    .map((n, i) => {
      const w = ((W - label - 140) * (vals[i] ?? 0)) / max;
      const y = i * (bh + 6);
      return `<text x="0" y="${y + 15}" font-size="12">${esc(n)}</text><rect x="${label}" y="${y}" width="${w.toFixed(1)}" height="${bh}" fill="${color(i)}"><title>${esc(cell(r, i))}</title></rect><text x="${(label + w + 6).toFixed(1)}" y="${y + 15}" font-size="12"${won.includes(i) ? ' font-weight="700"' : ''}>${esc(cell(r, i))}</text>`;
    })
    .join('');
  return `<svg viewBox="0 0 ${W} ${H}" width="100%" role="img" aria-label="${esc(r.label)}">${bars}</svg>`;
}

function bars(series: readonly (readonly number[])[]): string {
  const days = Math.max(1, ...series.map((s) => s.length));
  const max = Math.max(1, ...series.flat());
  const W = 900,
    H = 220,
    pad = 30,
    group = (W - pad) / days,
    bw = group / (series.length + 1);
  const rect = (i: number, k: number, v: number, fill: string) => {
    const h = ((H - pad) * v) / max;
    return `<rect x="${(pad + i * group + k * bw + bw / 2).toFixed(1)}" y="${(H - pad - h).toFixed(1)}" width="${bw.toFixed(1)}" height="${h.toFixed(1)}" fill="${fill}"><title>${v}</title></rect>`;
  };
  const labels = Array.from(
    { length: days },
    (_, i) => `<text x="${(pad + i * group + group / 2).toFixed(1)}" y="${H - 10}" text-anchor="middle" font-size="12">day ${i + 1}</text>`,
  ).join('');
  return `<svg viewBox="0 0 ${W} ${H}" width="100%" role="img"><text x="0" y="12" font-size="11">${max}</text><line x1="${pad}" y1="${H - pad}" x2="${W}" y2="${H - pad}" stroke="#9aa5b1"/>${series.map((s, k) => s.map((v, i) => rect(i, k, v, color(k))).join('')).join('')}${labels}</svg>`;
}

/** One message as its recipient read it, from the simulator's record: the personalisation made visible. */
export function renderedMessage(r: { header: string | null; body: string; footer: string | null; buttons: readonly string[] }): string[] {
  return [r.header, r.body, r.footer, r.buttons.map((b) => `[${b}]`).join(' ')].filter((l): l is string => l !== null && l !== '');
}
