import type { DeliveryFunnel } from '../../../ports/store.js';
import { count, percent } from './format.js';
import { html, type Html } from './html.js';
import { barChart } from './svg-chart.js';

const STEPS: readonly { key: keyof DeliveryFunnel; label: string; of: keyof DeliveryFunnel }[] = [
  { key: 'audience', label: 'Audience', of: 'audience' },
  { key: 'eligible', label: 'Eligible', of: 'audience' },
  { key: 'attempted', label: 'Attempted', of: 'eligible' },
  { key: 'accepted', label: 'Accepted by Meta', of: 'attempted' },
  { key: 'held', label: 'Held for a window', of: 'eligible' },
  { key: 'delivered', label: 'Delivered', of: 'accepted' },
  { key: 'read', label: 'Read', of: 'delivered' },
  { key: 'replied', label: 'Replied', of: 'delivered' },
];

/** The funnel as a chart and as a table (each step also as a share of the step it comes from). */
export function funnelView(funnel: DeliveryFunnel): Html {
  const rows = STEPS.map(
    (s) =>
      html`<tr data-step="${s.key}"><th>${s.label}</th><td class="num">${count(funnel[s.key])}</td><td class="num">${s.key === s.of ? '' : `${percent(funnel[s.key], funnel[s.of])} of ${s.of}`}</td></tr>`,
  );
  return html`${barChart(
    'Delivery funnel',
    STEPS.map((s) => ({ label: s.label, value: funnel[s.key] })),
  )}
<table class="funnel"><thead><tr><th>Step</th><th class="num">Recipients</th><th class="num">Share</th></tr></thead><tbody>${rows}</tbody></table>`;
}
