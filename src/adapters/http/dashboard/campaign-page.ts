import { timingInEffect } from '../../../app/message-timing.js';
import { recipientOutcomes, untilPhrase, type OutcomeGroup } from '../../../core/recipient-outcomes.js';
import { DAY } from '../../../core/time.js';
import type { Campaign, OutboxListRow, RetryRecovery } from '../../../ports/store.js';
import type { DashboardDeps } from './dashboard-deps.js';
import { frequencyCapInEffect } from '../../../app/campaign-outcomes.js';
import { campaignPace } from '../../../app/campaign-pace.js';
import { previewCampaign } from '../../../app/preview-campaign.js';
import { campaignNumbers } from '../../../app/sender-overview.js';
import { frequencyCapText } from '../../../core/duration.js';
import { paceSentence } from '../../../core/messaging-limit.js';
import { errorLink } from './error-link.js';
import { failureChart } from './failure-chart.js';
import { count, percent, when } from './format.js';
import { funnelView } from './funnel-view.js';
import { html, type Html } from './html.js';
import { messagePreviewView } from './message-preview-view.js';
import { canChange, csrfField, readOnlyNote, type Viewer } from './layout.js';
import { campaignNumbersView } from './senders-page.js';
import { barChart } from './svg-chart.js';

export const PAGE_SIZE = 50;
const FAILURE_DAYS = 14;

export interface CampaignPageQuery {
  retriesAfter: number;
  heldAfter: number;
  /** The outcome of an action just taken, shown once. */
  notice: string | null;
}

/** Null when the campaign does not exist. */
export async function campaignPage(
  deps: DashboardDeps,
  viewer: Viewer,
  id: number,
  q: CampaignPageQuery,
): Promise<{ title: string; body: Html } | null> {
  const { store } = deps;
  const campaign = await store.getCampaign(id);
  if (campaign === null) return null;
  const now = deps.clock.now();
  const [template, funnel, breakdown, recovery, retries, held, failures, skips, waitingRows] = await Promise.all([
    store.getTemplateById(campaign.templateId),
    store.deliveryFunnel(id),
    store.outboxBreakdown(id),
    store.retryRecovery(id),
    store.listOutboxRows({ campaignId: id, kind: 'retry', afterId: q.retriesAfter, limit: PAGE_SIZE }),
    store.listOutboxRows({ campaignId: id, kind: 'held', afterId: q.heldAfter, limit: PAGE_SIZE }),
    store.failuresByCode(id, Math.floor(now / DAY) * DAY - (FAILURE_DAYS - 1) * DAY, DAY),
    store.skipReasons(id),
    store.waitingReasons(id),
  ]);
  // The rows still to send, from the breakdown already read.
  const waiting = breakdown.filter((r) => r.status === 'queued' || r.status === 'held').reduce((n, r) => n + r.count, 0);
  const [pace, numbers] = await Promise.all([campaignPace(store, campaign, waiting, now), campaignNumbers(store, campaign, now)]);
  const cap = frequencyCapInEffect(campaign, deps.policy);
  // A page view counts a bounded share of the audience: rendering a million recipients would take seconds.
  const preview = await previewCampaign(store, id, now, {
    sample: 3,
    stopButtons: deps.policy.stopButtons,
    countUpTo: PREVIEW_COUNT_UP_TO,
  });
  const body = html`${q.notice === null ? null : html`<p class="notice" role="status">${q.notice}</p>`}
<p>Status: <strong class="status">${campaign.status}</strong>${campaign.pauseReason ? html` — <span class="pause-reason">${campaign.pauseReason}</span>` : null}</p>
<p>Template: ${template === null ? '—' : html`${template.name} (${template.language})`} · created ${when(campaign.createdAt)}${campaign.endsAt ? html` · ends ${when(campaign.endsAt)}` : null}</p>
${campaignNumbersView(numbers)}
<p class="pace">${paceSentence(pace)}</p>
<p class="frequency-cap">Frequency cap: ${frequencyCapText(cap.cap)} ${cap.from === 'campaign' ? "(this campaign's own)" : '(PACER_FREQUENCY_CAP)'}</p>
<p class="send-window">${timingInEffect(campaign, deps.policy).sentence}</p>
${actions(campaign, viewer)}
${preview.ok ? html`<h2>Message preview</h2>${messagePreviewView(preview.preview)}` : null}
<h2>Funnel</h2>${funnelView(funnel)}
<h2>Outcomes by class</h2>${outcomesView(recipientOutcomes(breakdown, skips, deps.policy.capCodes, waitingRows))}
<h2>Retry recovery</h2>${recoveryView(recovery)}
<h2>Failures by error code, last ${FAILURE_DAYS} days</h2>${failureChart(failures, now, FAILURE_DAYS)}
<h2>Pending retries</h2>${rowList(id, retries, 'retries', q)}
<h2>Held recipients</h2><p class="muted">Held for Meta's marketing experiment (130472): they go when the contact writes in.</p>${rowList(id, held, 'held', q)}`;
  return { title: `Campaign ${campaign.name}`, body };
}

const PREVIEW_COUNT_UP_TO = 20_000;

const ALLOWED: Record<'pause' | 'resume' | 'cancel', readonly Campaign['status'][]> = {
  pause: ['running', 'scheduled'],
  resume: ['paused'],
  cancel: ['draft', 'scheduled', 'running', 'paused'],
};

function actions(c: Campaign, viewer: Viewer): Html | null {
  if (viewer.csrf === null) return null;
  if (!canChange(viewer)) return readOnlyNote('pausing, resuming or cancelling a campaign');
  const form = (action: 'pause' | 'resume' | 'cancel', label: string, extra: Html | null = null) =>
    ALLOWED[action].includes(c.status)
      ? html`<form method="post" action="/campaigns/${c.id}/${action}">${csrfField(viewer)}${extra}<button type="submit" name="action" value="${action}"${action === 'cancel' ? html` class="danger"` : null}>${label}</button></form>`
      : null;
  return html`<div class="actions">${form('pause', 'Pause')}${form('resume', 'Resume')}${form('cancel', 'Cancel campaign', html`<label><input type="checkbox" name="confirm" value="yes" required> ends every row still waiting</label> `)}</div>`;
}

/** Recipients by what happened to them, with the error codes behind each group; waiting ones until when. */
function outcomesView(groups: readonly OutcomeGroup[]): Html {
  if (groups.length === 0) return html`<p class="muted">No recipients yet.</p>`;
  const total = groups.reduce((n, g) => n + g.count, 0);
  const until = (g: OutcomeGroup) => {
    const phrase = untilPhrase(g, when);
    return phrase === null ? null : html`<br><span class="until muted">${phrase}</span>`;
  };
  const rowsHtml = groups.map(
    (
      g,
    ) => html`<tr data-group="${g.key}"><th>${g.label}${g.errorClass === null ? null : html` <span class="muted">(${g.errorClass})</span>`}${until(g)}</th><td class="num">${count(g.count)}</td><td class="num">${percent(g.count, total)}</td>
<td>${g.codes.map((c) => html`<span class="code-count">${errorLink(c.code)} × ${count(c.count)}</span><br>`)}</td></tr>`,
  );
  return html`<table class="outcomes"><thead><tr><th>Outcome</th><th class="num">Recipients</th><th class="num">Share</th><th>Error codes</th></tr></thead><tbody>${rowsHtml}</tbody></table>`;
}

function recoveryView(r: RetryRecovery): Html {
  const at = (attempts: number) => r.deliveredByAttempt.filter((d) => d.attempts === attempts).reduce((n, d) => n + d.count, 0);
  const later = r.deliveredByAttempt.filter((d) => d.attempts >= 4).reduce((n, d) => n + d.count, 0);
  const bars = [
    { label: 'First attempt', value: at(1), key: 'first' },
    { label: 'Retry 1', value: at(2), key: 'retry1' },
    { label: 'Retry 2', value: at(3), key: 'retry2' },
    { label: 'Retry 3 or later', value: later, key: 'retry3' },
    { label: 'Exhausted', value: r.exhausted, key: 'exhausted' },
  ];
  return html`${barChart('Retry recovery', bars)}<table class="recovery"><thead><tr><th>Delivered on</th><th class="num">Recipients</th></tr></thead><tbody>${bars.map((b) => html`<tr data-step="${b.key}"><th>${b.label}</th><td class="num">${count(b.value)}</td></tr>`)}</tbody></table>`;
}

function rowList(campaignId: number, rows: readonly OutboxListRow[], kind: 'retries' | 'held', q: CampaignPageQuery): Html {
  if (rows.length === 0)
    return html`<p class="muted">${(kind === 'retries' ? q.retriesAfter : q.heldAfter) > 0 ? 'No more rows.' : 'None.'}</p>`;
  const body = rows.map(
    (r) =>
      html`<tr data-outbox="${r.id}"><td><a href="/contacts/${r.contactId}">${r.contactName ?? `contact ${r.contactId}`}</a></td><td class="num">${count(r.attempts)}</td><td>${errorLink(r.lastErrorCode)}</td><td>${when(r.nextAttemptAt)}</td></tr>`,
  );
  const last = rows[rows.length - 1];
  const nextQuery =
    kind === 'retries'
      ? `?retriesAfter=${last?.id ?? 0}&heldAfter=${q.heldAfter}`
      : `?retriesAfter=${q.retriesAfter}&heldAfter=${last?.id ?? 0}`;
  const more =
    rows.length === PAGE_SIZE
      ? html`<a class="next-page" data-list="${kind}" href="/campaigns/${campaignId}${nextQuery}">Next ${PAGE_SIZE} →</a>`
      : null;
  return html`<table class="${kind}"><thead><tr><th>Contact</th><th class="num">Attempts</th><th>Last error</th><th>${kind === 'retries' ? 'Next attempt' : 'Wakes at the latest'}</th></tr></thead><tbody>${body}</tbody></table>${more}`;
}
