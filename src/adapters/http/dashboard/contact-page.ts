import { randomUUID } from 'node:crypto';
import { explainContactNow } from '../../../app/explain-contact-now.js';
import { loadContactState } from '../../../app/update-contact-state.js';
import type { ContactState } from '../../../core/contact-state.js';
import type { CategoryExplanation } from '../../../core/explain-contact.js';
import type { ConsentRecord, Contact } from '../../../ports/store.js';
import { mergeConversation } from '../../../app/contact-conversation.js';
import { conversationView } from './contact-timeline.js';
import type { DashboardDeps } from './dashboard-deps.js';
import { errorLink } from './error-link.js';
import { when } from './format.js';
import { html, type Html } from './html.js';
import { canChange, csrfField, readOnlyNote, type Viewer } from './layout.js';

const TIMELINE_LIMIT = 200;
const VERDICT: Record<CategoryExplanation['decision']['kind'], string> = {
  send: 'would send now',
  defer: 'waits',
  hold: 'held',
  skip: 'not sent',
};

/** Null when the contact does not exist. The number is shown in full here only (signed-in operators). */
export async function contactPage(
  deps: DashboardDeps,
  viewer: Viewer,
  id: number,
  notice: string | null,
): Promise<{ title: string; body: Html } | null> {
  const { store } = deps;
  const contact = await store.getContact(id);
  if (contact === null) return null;
  const now = deps.clock.now();
  const [state, consents, timeline, inbound] = await Promise.all([
    loadContactState(store, id),
    store.consentHistory(id),
    store.contactTimeline(id, TIMELINE_LIMIT),
    store.contactInbound(id, TIMELINE_LIMIT),
  ]);
  const rows = explainContactNow(contact, state, now, deps.policy);
  const body = html`${notice === null ? null : html`<p class="notice" role="status">${notice}</p>`}
${details(contact)}
<h2>Reply</h2>${replyBox(deps, viewer, contact, state, now)}
<h2>Reachability by category</h2>${reachability(rows)}
<h2>Conversation</h2>${conversationView(mergeConversation(timeline, inbound, TIMELINE_LIMIT))}
<h2>Consent history</h2>${consentTable(consents)}`;
  return { title: `Contact ${contact.name ?? contact.phoneE164 ?? contact.waId ?? contact.bsuid ?? String(contact.id)}`, body };
}

function details(c: Contact): Html {
  const attrs = Object.entries(c.attributes);
  return html`<table class="contact"><tbody>
<tr><th>Name</th><td>${c.name ?? '—'}</td></tr>
<tr><th>Phone</th><td class="phone">${c.phoneE164 ?? '—'}</td></tr>
<tr><th>wa_id</th><td>${c.waId ?? '—'}</td></tr>
<tr><th>Business-scoped user id</th><td>${c.bsuid ?? '—'}</td></tr>
<tr><th>Tags</th><td>${c.tags.length === 0 ? '—' : c.tags.join(', ')}</td></tr>
${attrs.map(([k, v]) => html`<tr><th>${k}</th><td>${typeof v === 'string' ? v : JSON.stringify(v)}</td></tr>`)}
</tbody></table>`;
}

function replyBox(deps: DashboardDeps, viewer: Viewer, contact: Contact, state: ContactState, now: number): Html {
  const open = state.windowOpenUntil !== null && state.windowOpenUntil > now;
  if (!open) {
    const since =
      state.windowOpenUntil === null
        ? 'This contact has never written in'
        : `The customer-service window closed at ${when(state.windowOpenUntil)}`;
    return html`<p class="muted window-closed">${since}: a free-form reply cannot be sent. Send an approved template instead (API or CLI).</p>`;
  }
  if (deps.phoneNumberId === null) return html`<p class="error">Replies need WHATSAPP_PHONE_NUMBER_ID to be configured.</p>`;
  if (viewer.csrf === null) return html`<p class="muted">Sign in through the login form to reply.</p>`;
  if (!canChange(viewer)) return readOnlyNote('replying');
  // A fresh key per rendered form: submitting the same form twice queues one message.
  return html`<p class="window-open">The customer-service window is open until ${when(state.windowOpenUntil)}.</p>
<form method="post" action="/contacts/${contact.id}/reply" class="reply">${csrfField(viewer)}<input type="hidden" name="key" value="${randomUUID()}">
<label for="reply-text">Service message</label><br><textarea id="reply-text" name="text" maxlength="4096" required></textarea><br>
<button type="submit">Queue reply</button></form>`;
}

function reachability(rows: readonly CategoryExplanation[]): Html {
  return html`<table class="reachability"><thead><tr><th>Category</th><th>Verdict</th><th>Reason</th><th>Why</th><th>Events behind it</th></tr></thead><tbody>
${rows.map((r) => {
  const d = r.decision;
  const until = 'until' in d && d.until !== null ? html` until ${when(d.until)}` : null;
  return html`<tr data-category="${r.category}"><th>${r.category}</th><td>${VERDICT[d.kind]}${until}</td><td><span class="badge">${d.reason}</span></td><td>${d.explanation}</td>
<td>${r.causes.map((c) => html`${when(c.at)} ${c.type} ${c.detail !== null && /^\d+$/.test(c.detail) ? errorLink(Number(c.detail)) : (c.detail ?? '')}<br>`)}</td></tr>`;
})}</tbody></table>`;
}

function consentTable(records: readonly ConsentRecord[]): Html {
  if (records.length === 0) return html`<p class="muted">No consent recorded.</p>`;
  return html`<table class="consent"><thead><tr><th>When</th><th>Category</th><th>Status</th><th>Source</th><th>Evidence</th></tr></thead><tbody>
${records.map((r) => html`<tr><td>${when(r.at)}</td><td>${r.category}</td><td>${r.status}</td><td>${r.source}</td><td>${r.evidence ?? '—'}</td></tr>`)}</tbody></table>`;
}
