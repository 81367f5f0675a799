import { findErrorByCode } from '../../core/error-catalogue/index.js';
import { iso } from '../../core/time.js';
import { mergeConversation, type ConversationEntry } from '../../app/contact-conversation.js';
import type { ConsentStore, ContactHistoryStore, ContactStore } from '../../ports/store.js';
import { mask } from '../presenters/mask.js';
import { findContactByInput } from './contact-command.js';

const RECENT = 20;

/**
 * `pacer contact show`: who the contact is, their consent per category with its source, and what
 * happened lately (consent changes, decisions, delivery events with their meaning, replies).
 * Phone numbers are masked; reply texts are shown, as the operator's own conversation.
 */
export async function contactShowText(
  store: ContactStore & ConsentStore & ContactHistoryStore,
  input: string,
  json: boolean,
): Promise<string> {
  const contact = await findContactByInput(store, input);
  const [consent, timeline, inbound] = await Promise.all([
    store.getConsent(contact.id),
    store.contactTimeline(contact.id, RECENT),
    store.contactInbound(contact.id, RECENT),
  ]);
  const entries = mergeConversation(timeline, inbound, RECENT).map((e) => ({ at: e.at, line: describe(e) }));
  const who = mask(contact.phoneE164 ?? contact.waId ?? contact.bsuid ?? String(contact.id));
  const consentRows = Object.entries(consent).map(([category, c]) => ({ category, status: c.status, source: c.source, at: iso(c.at) }));
  if (json) {
    return JSON.stringify(
      {
        contact: {
          id: contact.id,
          phone: who,
          name: contact.name,
          tags: contact.tags,
          attributes: contact.attributes,
          createdAt: iso(contact.createdAt),
        },
        consent: consentRows,
        recent: entries.map((e) => ({ at: iso(e.at), what: e.line })),
      },
      null,
      2,
    );
  }
  return [
    `Contact #${contact.id} ${who}${contact.name ? ` (${contact.name})` : ''}${contact.tags.length > 0 ? ` · tags ${contact.tags.join(', ')}` : ''}`,
    'Consent:',
    ...(consentRows.length === 0
      ? ['  none recorded']
      : consentRows.map((c) => `  ${c.category.padEnd(15)} ${c.status.padEnd(8)} ${c.source} · ${c.at}`)),
    `Recent (newest first, at most ${RECENT}):`,
    ...(entries.length === 0 ? ['  nothing yet'] : entries.map((e) => `  ${iso(e.at)}  ${e.line}`)),
    'Why Pacer would or would not send now: pacer contact explain with the same number.',
  ].join('\n');
}

function describe(e: ConversationEntry): string {
  switch (e.type) {
    case 'inbound': {
      const text = e.message.text;
      return `reply (${e.message.type})${text === null ? '' : `: "${text.length > 80 ? `${text.slice(0, 79)}…` : text}"`}`;
    }
    case 'consent':
      return `consent ${e.category} ${e.status} (${e.source})`;
    case 'decision':
      return `decision on message ${e.outboxId ?? '—'}: ${e.kind} (${e.reason})`;
    case 'message_event': {
      if (e.errorCode === null) return `message ${e.outboxId} ${e.status}`;
      const entry = findErrorByCode(e.errorCode);
      return `message ${e.outboxId} ${e.status} with ${e.errorCode}${entry ? ` (${entry.name})` : ''}`;
    }
  }
}
