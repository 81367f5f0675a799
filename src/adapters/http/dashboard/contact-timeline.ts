import { findErrorByCode } from '../../../core/error-catalogue/index.js';
import type { ConversationEntry } from '../../../app/contact-conversation.js';
import { errorLink } from './error-link.js';
import { when } from './format.js';
import { html, type Html } from './html.js';

export function conversationView(entries: readonly ConversationEntry[]): Html {
  if (entries.length === 0) return html`<p class="muted">Nothing has happened with this contact yet.</p>`;
  return html`<ol class="timeline">${entries.map((e) => html`<li data-type="${e.type}"><span class="at">${when(e.at)}</span>${describe(e)}</li>`)}</ol>`;
}

function describe(e: ConversationEntry): Html {
  switch (e.type) {
    case 'inbound':
      return html`<strong>Reply</strong> (${e.message.type}): ${e.message.text ?? html`<span class="muted">no text</span>`}`;
    case 'consent':
      return html`<strong>Consent</strong> ${e.category} ${e.status} <span class="muted">via ${e.source}</span>`;
    case 'decision':
      return html`<strong>Decision</strong> ${e.kind} <span class="badge">${e.reason}</span> ${e.explanation}`;
    case 'message_event': {
      if (e.status !== 'failed') return html`<strong>Message ${e.status}</strong> <span class="muted">row ${e.outboxId}</span>`;
      const entry = e.errorCode === null ? undefined : findErrorByCode(e.errorCode);
      return html`<strong>Message failed</strong> ${errorLink(e.errorCode)}${entry === undefined ? null : html`: ${entry.page.meaning}`} <span class="muted">row ${e.outboxId}</span>`;
    }
  }
}
