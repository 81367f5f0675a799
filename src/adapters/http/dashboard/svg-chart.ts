import { html, trusted, type Html } from './html.js';

// Charts are drawn on the server as inline SVG. A chart library (uPlot and the like) would need a
// script in the page, a looser content-security policy and a bundle served from node_modules, for
// a handful of bar and step charts that change only on reload; SVG keeps the pages script-free and
// offline, and every number is printed in a table next to its chart anyway.

const PALETTE = ['#2b6cb0', '#c05621', '#2f855a', '#b7791f', '#6b46c1', '#c53030', '#319795', '#718096', '#d53f8c', '#4a5568'];

export function colour(index: number): string {
  return PALETTE[index % PALETTE.length] ?? '#4a5568';
}

const n = (v: number): string => String(Math.round(v * 10) / 10);

export interface Bar {
  label: string;
  value: number;
}

/** Horizontal bars scaled to the largest value (funnels, recovery curves). */
export function barChart(title: string, bars: readonly Bar[]): Html {
  const width = 640;
  const row = 26;
  const labelWidth = 170;
  const max = Math.max(1, ...bars.map((b) => b.value));
  const height = bars.length * row + 8;
  const parts = bars.map((b, i) => {
    const w = ((width - labelWidth - 70) * b.value) / max;
    const y = 4 + i * row;
    return (
      html`<text x="${labelWidth - 8}" y="${n(y + 16)}" text-anchor="end">${b.label}</text>`.text +
      `<rect x="${labelWidth}" y="${n(y + 3)}" width="${n(w)}" height="18" fill="${colour(0)}"/>` +
      html`<text x="${n(labelWidth + w + 6)}" y="${n(y + 16)}">${b.value.toLocaleString('en-US')}</text>`.text
    );
  });
  return html`<svg class="chart" role="img" aria-label="${title}" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}">${trusted(parts.join(''))}</svg>`;
}

export interface Column {
  label: string;
  parts: readonly { key: string; value: number }[];
}

/** Stacked columns over time (failures per day by code), with a legend of the keys. */
export function stackedColumns(title: string, columns: readonly Column[], keys: readonly string[]): Html {
  const width = 640;
  const height = 200;
  const base = height - 24;
  const max = Math.max(1, ...columns.map((c) => c.parts.reduce((s, p) => s + p.value, 0)));
  const slot = columns.length === 0 ? width : (width - 40) / columns.length;
  const bars = columns.map((c, i) => {
    let top = base;
    const x = 40 + i * slot + slot * 0.15;
    const rects = c.parts.map((p) => {
      const h = ((base - 10) * p.value) / max;
      top -= h;
      return `<rect x="${n(x)}" y="${n(top)}" width="${n(slot * 0.7)}" height="${n(h)}" fill="${colour(keys.indexOf(p.key))}"/>`;
    });
    const label =
      columns.length <= 16 || i % Math.ceil(columns.length / 16) === 0
        ? html`<text x="${n(x + slot * 0.35)}" y="${height - 8}" text-anchor="middle" class="tick">${c.label}</text>`.text
        : '';
    return rects.join('') + label;
  });
  const axis =
    html`<text x="34" y="16" text-anchor="end" class="tick">${max.toLocaleString('en-US')}</text><text x="34" y="${base}" text-anchor="end" class="tick">0</text>`
      .text;
  // Swatches are tiny SVGs: the content-security policy allows no inline style attributes.
  const legend = keys.map(
    (k, i) =>
      html`<span class="key">${trusted(`<svg width="10" height="10" aria-hidden="true"><rect width="10" height="10" fill="${colour(i)}"/></svg>`)} ${k}</span>`,
  );
  return html`<figure><svg class="chart" role="img" aria-label="${title}" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}">${trusted(`<line x1="38" y1="${base}" x2="${width}" y2="${base}" stroke="#a0aec0"/>${axis}${bars.join('')}`)}</svg><figcaption>${legend}</figcaption></figure>`;
}

export interface Step {
  at: number;
  level: string;
}

/** A step line between named levels over time (a sender's quality rating), best level on top. */
export function stepChart(title: string, steps: readonly Step[], levels: readonly string[], from: number, to: number): Html {
  const width = 640;
  const rowH = 28;
  const left = 90;
  const height = levels.length * rowH + 30;
  const x = (t: number) => left + ((width - left - 10) * (Math.min(Math.max(t, from), to) - from)) / Math.max(1, to - from);
  const y = (level: string) => 14 + Math.max(0, levels.indexOf(level)) * rowH;
  const labels = levels.map((l) => html`<text x="${left - 8}" y="${n(y(l) + 4)}" text-anchor="end" class="tick">${l}</text>`.text).join('');
  const points: string[] = [];
  steps.forEach((s, i) => {
    const next = steps[i + 1]?.at ?? to;
    points.push(`${n(x(s.at))},${n(y(s.level))}`, `${n(x(next))},${n(y(s.level))}`);
  });
  const line = points.length === 0 ? '' : `<polyline points="${points.join(' ')}" fill="none" stroke="${colour(0)}" stroke-width="3"/>`;
  return html`<svg class="chart" role="img" aria-label="${title}" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}">${trusted(labels + line)}</svg>`;
}
