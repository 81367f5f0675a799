import type { Millis } from '../../../core/time.js';
import type { Sender, SenderChange } from '../../../ports/store.js';
import { when } from './format.js';
import { html, type Html } from './html.js';
import { stepChart } from './svg-chart.js';

/** Best on top; ratings Meta may add later go below these. */
const QUALITY_LEVELS = ['GREEN', 'YELLOW', 'FLAGGED', 'RED'];
const STATE_LEVELS = ['ok', 'throttled', 'stopped'];

/** A number's quality rating over the window as a step chart (null when nothing changed). */
export function qualityChart(
  sender: Pick<Sender, 'displayNumber'>,
  changes: readonly SenderChange[],
  from: Millis,
  to: Millis,
): Html | null {
  if (changes.length === 0) return null;
  const levels = [
    ...QUALITY_LEVELS,
    ...new Set(changes.map((c) => c.qualityRating ?? 'UNKNOWN').filter((q) => !QUALITY_LEVELS.includes(q))),
  ];
  const steps = changes.map((c) => ({ at: c.at, level: c.qualityRating ?? 'UNKNOWN' }));
  return stepChart(`Quality rating of ${sender.displayNumber}`, steps, levels, from, to);
}

/** Pacer's state of the number over the window (ok, throttled, stopped), as a step chart. */
export function stateChart(sender: Pick<Sender, 'displayNumber'>, changes: readonly SenderChange[], from: Millis, to: Millis): Html | null {
  if (changes.length === 0) return null;
  const steps = changes.map((c) => ({ at: c.at, level: c.state }));
  return stepChart(`Sending state of ${sender.displayNumber}`, steps, STATE_LEVELS, from, to);
}

/** Every change, oldest first: when, quality, limit, state (with its reason) and the signal behind it. */
export function changesTable(changes: readonly SenderChange[]): Html | null {
  if (changes.length === 0) return null;
  const rows = changes.map(
    (c) =>
      html`<tr><td>${when(c.at)}</td><td>${c.qualityRating ?? '—'}</td><td>${c.messagingLimitTier ?? '—'}</td><td>${c.state}${c.stateReason ? html` <span class="muted">${c.stateReason}</span>` : null}</td><td>${c.source}</td></tr>`,
  );
  return html`<table class="sender-changes"><thead><tr><th>When</th><th>Quality</th><th>Limit</th><th>State</th><th>Signal</th></tr></thead><tbody>${rows}</tbody></table>`;
}

/** The id of a number's section on the senders page. */
export function senderAnchor(phoneNumberId: string): string {
  return `sender-${phoneNumberId.replace(/[^A-Za-z0-9_-]/g, '_')}`;
}
