import { DAY } from '../../../core/time.js';
import type { Campaign, Sender, SenderChange } from '../../../ports/store.js';
import type { DashboardDeps } from './dashboard-deps.js';
import { failureChart } from './failure-chart.js';
import { count, when } from './format.js';
import { funnelView } from './funnel-view.js';
import { html, type Html } from './html.js';
import { changesTable, qualityChart, senderAnchor } from './sender-history-view.js';

const FAILURE_DAYS = 14;
const QUALITY_DAYS = 90;

export async function overviewPage(deps: DashboardDeps): Promise<Html> {
  const now = deps.clock.now();
  const since = Math.floor(now / DAY) * DAY - (FAILURE_DAYS - 1) * DAY;
  const [funnel, failures, senders, campaigns] = await Promise.all([
    deps.store.deliveryFunnel(null),
    deps.store.failuresByCode(null, since, DAY),
    deps.store.listSenders(),
    deps.store.listCampaigns({}),
  ]);
  const quality = await Promise.all(
    senders.map(async (s) => senderQuality(s, await deps.store.senderChanges(s.id, now - QUALITY_DAYS * DAY, 500), now)),
  );
  return html`<h2>Delivery funnel, every campaign</h2>${funnelView(funnel)}
<h2>Failures by error code, last ${FAILURE_DAYS} days</h2>${failureChart(failures, now, FAILURE_DAYS)}
<h2>Sender quality rating</h2>${senders.length === 0 ? html`<p class="muted">No sender number is registered yet.</p>` : quality}
<h2>Paused campaigns</h2>${pausedCampaigns(campaigns)}
<h2>All campaigns</h2>${campaignList(campaigns)}`;
}

function senderQuality(sender: Sender, changes: readonly SenderChange[], now: number): Html {
  const chart =
    qualityChart(sender, changes, changes[0]?.at ?? now, now) ??
    html`<p class="muted">No quality, limit or restriction change recorded in the last ${QUALITY_DAYS} days.</p>`;
  return html`<section class="sender" data-sender="${sender.id}"><h3><a href="/senders#${senderAnchor(sender.phoneNumberId)}">${sender.displayNumber}</a> <span class="badge ${qualityBadge(sender.qualityRating)}">${sender.qualityRating ?? 'unknown'}</span> <span class="badge">${sender.state}</span></h3>
<p>Messaging limit: ${sender.messagingLimitTier ?? 'unknown'} · throughput ${count(sender.throughputMps)} messages/s${sender.stateReason ? html` · ${sender.stateReason}` : null}</p>
${chart}${changesTable(changes)}</section>`;
}

export function qualityBadge(quality: string | null): string {
  const q = (quality ?? '').toUpperCase();
  if (q === 'GREEN' || q === 'HIGH') return 'good';
  if (q === 'YELLOW' || q === 'MEDIUM') return 'warn';
  if (q === 'RED' || q === 'LOW' || q === 'FLAGGED') return 'bad';
  return '';
}

function pausedCampaigns(campaigns: readonly Campaign[]): Html {
  const paused = campaigns.filter((c) => c.status === 'paused');
  if (paused.length === 0) return html`<p class="muted">No campaign is paused.</p>`;
  return html`<table class="paused"><thead><tr><th>Campaign</th><th>Paused since</th><th>Reason</th></tr></thead><tbody>${paused.map((c) => html`<tr><td><a href="/campaigns/${c.id}">${c.name}</a></td><td>${when(c.updatedAt)}</td><td>${c.pauseReason ?? '—'}</td></tr>`)}</tbody></table>`;
}

function campaignList(campaigns: readonly Campaign[]): Html {
  if (campaigns.length === 0) return html`<p class="muted">No campaign yet.</p>`;
  const newest = [...campaigns].sort((a, b) => b.createdAt - a.createdAt || b.id - a.id);
  return html`<table class="campaigns"><thead><tr><th>Campaign</th><th>Status</th><th>Created</th></tr></thead><tbody>${newest.map((c) => html`<tr><td><a href="/campaigns/${c.id}">${c.name}</a></td><td>${c.status}</td><td>${when(c.createdAt)}</td></tr>`)}</tbody></table>`;
}
