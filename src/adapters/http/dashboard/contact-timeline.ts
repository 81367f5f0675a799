import { findErrorByCode } from '../../../core/error-catalogue/index.js';
import type { InboundMessage, TimelineEntry } from '../../../ports/store.js';
import { errorLink } from './error-link.js';
import { when } from './format.js';
import { html, type Html } from './html.js';

export type ConversationEntry = TimelineEntry | { type: 'inbound'; at: number; message: InboundMessage };

/** Our decisions and messages, their statuses, consent changes and the contact's replies, newest first. */
export function mergeConversation(timeline: readonly TimelineEntry[], inbound: readonly InboundMessage[], limit: number): ConversationEntry[] {
  const entries: ConversationEntry[] = [...timeline, ...inbound.map((m) => ({ type: 'inbound' as const, at: m.at, message: m }))];
  return entries.sort((a, b) => b.at - a.at).slice(0, limit);
}

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
