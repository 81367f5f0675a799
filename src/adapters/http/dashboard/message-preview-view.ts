import type { CampaignPreview, PreviewSample } from '../../../app/preview-campaign.js';
import type { MessagePreview } from '../../../core/template-preview.js';
import { count } from './format.js';
import { html, type Html } from './html.js';

/** The message as a chat bubble: header, body, footer, then the buttons under it. */
function bubble(m: MessagePreview): Html {
  return html`<div class="wa-bubble">${m.header === null ? null : html`<p class="wa-header">${m.header}</p>`}<p class="wa-body">${m.body}</p>${m.footer === null ? null : html`<p class="wa-footer">${m.footer}</p>`}${
    m.buttons.length === 0 ? null : html`<ul class="wa-buttons">${m.buttons.map((b) => html`<li>${b}</li>`)}</ul>`
  }</div>`;
}

const contactLink = (s: PreviewSample): Html => html`<a href="/contacts/${s.contactId}">contact ${s.contactId}</a>`;

function sampleView(p: CampaignPreview): Html {
  if (!p.template.placeholdersKnown) return html`<p class="notice">${p.notice}</p>`;
  const shown = p.samples.find((s) => 'preview' in s && s.preview !== null);
  if (shown !== undefined && 'preview' in shown && shown.preview !== null)
    return html`${bubble(shown.preview)}<p class="muted">As ${contactLink(shown)} would read it.</p>`;
  const skipped = p.samples.find((s) => 'skipped' in s);
  if (skipped !== undefined && 'skipped' in skipped)
    return html`<p class="error">The first recipients would all be skipped, e.g. ${contactLink(skipped)}: ${skipped.skipped.detail}</p>`;
  return html`<p class="muted">The segment selects nobody now.</p>`;
}

/** A campaign's "Message preview": one recipient's message as they would read it, and who a start would skip for a missing value. */
export function messagePreviewView(p: CampaignPreview): Html {
  const a = p.audience;
  const skippedTotal = a.skipped.reduce((n, g) => n + g.count, 0);
  const groups =
    a.skipped.length === 0
      ? null
      : html`<table class="preview-skips"><thead><tr><th class="num">Recipients</th><th>Reason</th><th>Slot</th><th>Problem</th></tr></thead><tbody>${a.skipped.map(
          (g) =>
            html`<tr data-slot="${g.slot}"><td class="num">${count(g.count)}</td><td>${g.reason}</td><td><code>${g.slot}</code></td><td>${g.detail}</td></tr>`,
        )}</tbody></table>`;
  return html`${sampleView(p)}<p class="preview-audience">${a.complete ? null : 'Among the first contacts: '}${count(a.matched)} matched now · ${count(a.wouldSend)} would be sent · ${count(skippedTotal)} would be skipped for a template value</p>${groups}`;
}
