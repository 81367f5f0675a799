import {
  SENDER_HISTORY_DAYS,
  sendersOverview,
  type CampaignNumbers,
  type CampaignSender,
  type SenderLimit,
  type SenderOverview,
  type SendingVerdict,
} from '../../../app/sender-overview.js';
import { DAY } from '../../../core/time.js';
import type { Sender } from '../../../ports/store.js';
import type { DashboardDeps } from './dashboard-deps.js';
import { count, day, when } from './format.js';
import { html, type Html } from './html.js';
import { qualityBadge } from './overview-page.js';
import { changesTable, qualityChart, senderAnchor, stateChart } from './sender-history-view.js';

/**
 * Every sender number on one table, the ones that cannot send first and marked with why; below,
 * each number's quality, limit and state changes over the last 30 days.
 */
export async function sendersPage(deps: DashboardDeps): Promise<Html> {
  const now = deps.clock.now();
  const all = await sendersOverview(deps.store, now, { history: true });
  if (all.length === 0)
    return html`<p class="muted">No sender number is registered yet: run <code>pacer sender sync</code> to read them from Meta.</p>`;
  const rank = (o: SenderOverview) => (o.sending.kind === 'cannot_send' ? 0 : o.sending.kind === 'waits' ? 1 : 2);
  const sorted = [...all].sort((a, b) => rank(a) - rank(b) || a.sender.displayNumber.localeCompare(b.sender.displayNumber));
  const blocked = all.filter((o) => o.sending.kind === 'cannot_send').length;
  return html`${blocked === 0 ? null : html`<p class="error" role="alert">${count(blocked)} of ${count(all.length)} number(s) cannot send: see the marked rows.</p>`}
<table class="senders"><thead><tr><th>Number</th><th>Phone-number id</th><th>Account (WABA)</th><th>Portfolio</th><th>Meta status</th><th>Pacer state</th><th>Quality</th><th>Throughput</th><th>Messaging limit</th><th>Last read from Meta</th><th>Campaigns</th></tr></thead>
<tbody>${sorted.map((o) => senderRow(o))}</tbody></table>
<h2>Changes, last ${SENDER_HISTORY_DAYS} days</h2>${sorted.map((o) => historySection(o, now))}`;
}

function senderRow(o: SenderOverview): Html {
  const s = o.sender;
  const problem = o.sending.kind === 'cannot_send';
  return html`<tr data-sender="${s.phoneNumberId}"${problem ? html` class="problem"` : null}>
<td><a href="#${senderAnchor(s.phoneNumberId)}"><strong>${s.displayNumber}</strong></a>${s.verifiedName === null ? null : html`<br>${s.verifiedName}`}${verdictBadge(o.sending)}</td>
<td><code>${s.phoneNumberId}</code></td><td>${s.businessAccountId ?? html`<span class="muted">unknown</span>`}</td>
<td>${s.portfolioId ?? html`<span class="muted">not known: its own limit</span>`}</td>
<td class="meta-status">${metaStatus(s)}</td>
<td class="state">${stateCell(s)}</td>
<td><span class="badge ${qualityBadge(s.qualityRating)}">${s.qualityRating ?? 'unknown'}</span></td>
<td class="num">${count(s.throughputMps)}/s${s.throughputLevel === null ? null : html`<br><span class="muted">${s.throughputLevel}</span>`}</td>
<td class="limit">${limitCell(o.limit)}</td>
<td>${s.syncedAt === null ? html`<span class="muted">never — run <code>pacer sender sync</code></span>` : when(s.syncedAt)}</td>
<td>${o.campaigns.length === 0 ? html`<span class="muted">none</span>` : o.campaigns.map((c) => html`<a href="/campaigns/${c.id}">${c.name}</a> <span class="muted">(${c.status})</span><br>`)}</td></tr>`;
}

function verdictBadge(v: SendingVerdict): Html | null {
  switch (v.kind) {
    case 'sends':
      return null;
    case 'waits':
      return html`<br><span class="badge warn">Waits${v.until === null ? null : html` until ${when(v.until)}`}: ${v.reason}</span>`;
    case 'cannot_send':
      return html`<br><span class="badge bad cannot-send">Cannot send: ${v.reasons.join('; ')}</span>`;
  }
}

function metaStatus(s: Sender): Html {
  if (s.metaStatus === null) return html`<span class="muted">not read</span>`;
  const ok = s.metaStatus.trim().toUpperCase() === 'CONNECTED';
  return html`<span class="badge ${ok ? 'good' : 'bad'}">${s.metaStatus}</span>${s.nameStatus === null ? null : html`<br><span class="muted">name ${s.nameStatus}</span>`}`;
}

function stateCell(s: Sender): Html {
  const badge = s.state === 'ok' ? 'good' : s.state === 'throttled' ? 'warn' : 'bad';
  return html`<span class="badge ${badge}">${s.state}</span>${s.stateReason === null ? null : html`<br>${s.stateReason}`}${s.stateUntil === null ? null : html`<br><span class="muted">until ${when(s.stateUntil)}</span>`}`;
}

function limitCell(l: SenderLimit): Html {
  const cap =
    l.perDay !== null
      ? html`${l.tier}: ${count(l.perDay)} people/24 h`
      : l.unlimited
        ? html`${l.tier}: unlimited`
        : html`<span class="muted">${l.tier === null ? 'not known yet' : `${l.tier} (not a tier Pacer knows)`}</span>`;
  const shared = l.portfolioNumbers.length > 1 ? html` <span class="muted">(${count(l.portfolioNumbers.length)} numbers)</span>` : null;
  return html`${cap}<br><span class="used">${count(l.usedLast24h)}${l.perDay === null ? null : html` of ${count(l.perDay)}`} used by the portfolio in the last 24 h</span>${shared}`;
}

function historySection(o: SenderOverview, now: number): Html {
  const s = o.sender;
  const changes = o.history ?? [];
  const from = now - SENDER_HISTORY_DAYS * DAY;
  const body =
    changes.length === 0
      ? html`<p class="muted">No quality, limit or state change recorded in the last ${SENDER_HISTORY_DAYS} days.</p>`
      : html`${qualityChart(s, changes, from, now)}${stateChart(s, changes, from, now)}<p class="muted chart-span">Charts from ${day(from)} to ${day(now)} (UTC).</p>${changesTable(changes)}`;
  return html`<section class="sender-history" id="${senderAnchor(s.phoneNumberId)}" data-sender="${s.phoneNumberId}"><h3>${s.displayNumber} <span class="muted">${s.phoneNumberId}</span></h3>${body}</section>`;
}

/** The campaign page's lines: each number it sends from, its state, and why it cannot send. */
export function campaignNumbersView(n: CampaignNumbers): Html {
  const unknown = n.unknown.map(
    (id) =>
      html`<li class="campaign-sender unknown">${id.startsWith('#') ? `sender ${id}` : id}: <span class="badge bad">not a number Pacer knows</span> <span class="muted">(pacer sender sync reads them from Meta)</span></li>`,
  );
  const [only] = n.senders;
  if (n.pool === null && only !== undefined && n.senders.length === 1 && unknown.length === 0)
    return html`<p class="campaign-sender">Sends from ${senderLine(only)}</p>`;
  const heading = `Sends from ${count(n.senders.length + n.unknown.length)} numbers${n.pool === null ? '' : ` (pool: ${n.pool})`}:`;
  return html`<p>${heading}</p><ul class="campaign-senders">${n.senders.map((s) => html`<li class="campaign-sender">${senderLine(s)}</li>`)}${unknown}</ul>`;
}

function senderLine(s: CampaignSender): Html {
  const badge = s.state === 'ok' ? 'good' : s.state === 'throttled' ? 'warn' : 'bad';
  return html`<a href="/senders#${senderAnchor(s.phoneNumberId)}">${s.displayNumber}${s.verifiedName === null ? null : html` ${s.verifiedName}`}</a> <span class="muted">(${s.phoneNumberId})</span> · <span class="badge ${badge}">${s.state}</span>${verdictBadge(s.sending)}`;
}
