import type { StrategyMetrics } from './demo-metrics.js';

export interface Row {
  label: string;
  pacer: number | string;
  naive: number | string;
  /** Which way is better, for the marker in the table. */
  better: 'higher' | 'lower' | 'none';
  /** Shown as a share of these (each side's own), and compared by that share. */
  of?: { pacer: number; naive: number };
}

export function comparisonRows(p: StrategyMetrics, n: StrategyMetrics): Row[] {
  return [
    { label: 'delivered messages', pacer: p.delivered, naive: n.delivered, better: 'higher' },
    { label: 'read', pacer: p.read, naive: n.read, better: 'higher' },
    { label: 'people reached by the campaign', pacer: p.marketingReach, naive: n.marketingReach, better: 'higher' },
    { label: '131049 failures', pacer: p.caps131049, naive: n.caps131049, better: 'lower' },
    { label: 'retries spent', pacer: p.retriesSpent, naive: n.retriesSpent, better: 'lower' },
    { label: 'contacts wrongly suppressed', pacer: p.wronglySuppressed, naive: n.wronglySuppressed, better: 'lower' },
    { label: 'utility delivered to capped contacts', pacer: p.utilityToCapped, naive: n.utilityToCapped, better: 'higher' },
    { label: 'blocks and reports', pacer: p.blocksAndReports, naive: n.blocksAndReports, better: 'lower' },
    { label: 'messages delivered at night', pacer: p.deliveredAtNight, naive: n.deliveredAtNight, better: 'lower', of: delivered(p, n) },
    {
      label: 'delivered more than 24 h late',
      pacer: p.deliveredOver24hLate,
      naive: n.deliveredOver24hLate,
      better: 'lower',
      of: delivered(p, n),
    },
    { label: 'quality rating at the end', pacer: p.quality, naive: n.quality, better: 'none' },
    { label: 'billable deliveries', pacer: p.billable, naive: n.billable, better: 'none' },
    { label: 'API requests', pacer: p.requests, naive: n.requests, better: 'lower' },
  ];
}

function delivered(p: StrategyMetrics, n: StrategyMetrics): { pacer: number; naive: number } {
  return { pacer: p.delivered, naive: n.delivered };
}

/** A cell as shown: `12,345`, or `12,345 (9.1%)` for a row shown as a share. */
function cell(r: Row, side: 'pacer' | 'naive'): string {
  const v = r[side];
  if (typeof v !== 'number') return v;
  const of = r.of?.[side];
  return of === undefined ? v.toLocaleString('en-US') : `${v.toLocaleString('en-US')} (${percent(v, of)})`;
}

function percent(v: number, of: number): string {
  return of === 0 ? '–' : `${((100 * v) / of).toFixed(1)}%`;
}

/** The terminal table. */
export function renderTable(rows: readonly Row[]): string {
  const w0 = Math.max(...rows.map((r) => r.label.length));
  const w1 = Math.max(5, ...rows.map((r) => cell(r, 'pacer').length));
  const w2 = Math.max(5, ...rows.map((r) => cell(r, 'naive').length));
  const head = `${''.padEnd(w0)}  ${'Pacer'.padStart(w1)}  ${'naive'.padStart(w2)}`;
  const lines = rows.map((r) => {
    const mark = winner(r) === 'pacer' ? ' ◀' : winner(r) === 'naive' ? ' ▶' : '';
    return `${r.label.padEnd(w0)}  ${cell(r, 'pacer').padStart(w1)}  ${cell(r, 'naive').padStart(w2)}${mark}`;
  });
  return [head, '-'.repeat(head.length), ...lines].join('\n');
}

function winner(r: Row): 'pacer' | 'naive' | null {
  if (r.better === 'none' || typeof r.pacer !== 'number' || typeof r.naive !== 'number') return null;
  // A share row compares shares: fewer night deliveries out of fewer deliveries is no win.
  const a = r.of === undefined ? r.pacer : r.pacer / Math.max(1, r.of.pacer);
  const b = r.of === undefined ? r.naive : r.naive / Math.max(1, r.of.naive);
  if (a === b) return null;
  return (r.better === 'higher') === a > b ? 'pacer' : 'naive';
}

const esc = (s: string) => s.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

/** A self-contained HTML page (no network): the table and two charts drawn as inline SVG. */
export function renderHtml(
  title: string,
  subtitle: string,
  rows: readonly Row[],
  p: StrategyMetrics,
  n: StrategyMetrics,
  sample: readonly string[] = [],
  footnote = '',
): string {
  const table = rows
    .map(
      (r) =>
        `<tr><th>${esc(r.label)}</th><td${winner(r) === 'pacer' ? ' class="win"' : ''}>${esc(cell(r, 'pacer'))}</td><td${winner(r) === 'naive' ? ' class="win"' : ''}>${esc(cell(r, 'naive'))}</td></tr>`,
    )
    .join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${esc(title)}</title><style>
body{font:15px/1.5 system-ui,sans-serif;margin:2rem auto;max-width:960px;color:#1f2933}
table{border-collapse:collapse;margin:1rem 0}th,td{padding:.3rem .8rem;border-bottom:1px solid #e4e7eb;text-align:right}
th{text-align:left;font-weight:500}td.win{background:#e3f9e5;font-weight:600}.legend span{display:inline-block;width:12px;height:12px;margin:0 .3rem 0 1rem}
figure{margin:2rem 0}figcaption{font-weight:600;margin-bottom:.5rem}.bubble{background:#dcf8c6;border-radius:8px;padding:.6rem .9rem;max-width:32rem;margin:0}
</style></head><body><h1>${esc(title)}</h1><p>${esc(subtitle)}</p>
<table><thead><tr><th></th><th>Pacer</th><th>naive</th></tr></thead><tbody>${table}</tbody></table>${footnote === '' ? '' : `<p>${esc(footnote)}</p>`}
<figure><figcaption>Delivered messages per day</figcaption>${bars(
    p.daily.map((d) => d.delivered),
    n.daily.map((d) => d.delivered),
  )}</figure>
<figure><figcaption>131049 (per-user cap) failures per day</figcaption>${bars(
    p.daily.map((d) => d.caps),
    n.daily.map((d) => d.caps),
  )}</figure>
${sample.length === 0 ? '' : `<figure><figcaption>One message of Pacer's campaign, as its recipient read it</figcaption><blockquote class="bubble">${sample.map(esc).join('<br>')}</blockquote></figure>`}
<p class="legend"><span style="background:#2f80ed"></span>Pacer<span style="background:#d64545"></span>naive: sends at once, resends every failure at once, drops anyone who fails twice</p>
</body></html>`;
}

function bars(a: readonly number[], b: readonly number[]): string {
  const max = Math.max(1, ...a, ...b);
  const W = 900,
    H = 220,
    pad = 30,
    group = (W - pad) / Math.max(1, a.length),
    bw = group / 3;
  const rect = (i: number, k: number, v: number, color: string) => {
    const h = ((H - pad) * v) / max;
    return `<rect x="${(pad + i * group + k * bw + bw / 2).toFixed(1)}" y="${(H - pad - h).toFixed(1)}" width="${bw.toFixed(1)}" height="${h.toFixed(1)}" fill="${color}"><title>${v}</title></rect>`;
  };
  const labels = a
    .map(
      (_, i) =>
        `<text x="${(pad + i * group + group / 2).toFixed(1)}" y="${H - 10}" text-anchor="middle" font-size="12">day ${i + 1}</text>`,
    )
    .join('');
  return `<svg viewBox="0 0 ${W} ${H}" width="100%" role="img"><text x="0" y="12" font-size="11">${max}</text><line x1="${pad}" y1="${H - pad}" x2="${W}" y2="${H - pad}" stroke="#9aa5b1"/>${a.map((v, i) => rect(i, 0, v, '#2f80ed')).join('')}${b.map((v, i) => rect(i, 1, v, '#d64545')).join('')}${labels}</svg>`;
}

/** One message as its recipient read it, from the simulator's record: the personalisation made visible. */
export function renderedMessage(r: { header: string | null; body: string; footer: string | null; buttons: readonly string[] }): string[] {
  return [r.header, r.body, r.footer, r.buttons.map((b) => `[${b}]`).join(' ')].filter((l): l is string => l !== null && l !== '');
}
