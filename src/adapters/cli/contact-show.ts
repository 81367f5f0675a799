import { findErrorByCode } from '../../core/error-catalogue/index.js';
import { iso } from '../../core/time.js';
import type { Store, TimelineEntry } from '../../ports/store.js';
import { findContactByInput, mask } from './contact-command.js';

const RECENT = 20;

/**
 * `pacer contact show`: who the contact is, their consent per category with its source, and what
 * happened lately (consent changes, decisions, delivery events with their meaning, replies).
 * Phone numbers are masked; reply texts are shown, as the operator's own conversation.
 */
export async function contactShowCommand(store: Store, input: string, json: boolean): Promise<string> {
  const contact = await findContactByInput(store, input);
  const [consent, timeline, inbound] = await Promise.all([
    store.getConsent(contact.id),
    store.contactTimeline(contact.id, RECENT),
    store.contactInbound(contact.id, RECENT),
  ]);
  const entries = [
    ...timeline.map((e) => ({ at: e.at, line: describe(e) })),
    ...inbound.map((m) => ({ at: m.at, line: `reply (${m.type})${m.text === null ? '' : `: "${m.text.length > 80 ? `${m.text.slice(0, 79)}…` : m.text}"`}` })),
  ].sort((a, b) => b.at - a.at).slice(0, RECENT);
  const who = mask(contact.phoneE164 ?? contact.waId ?? contact.bsuid ?? String(contact.id));
  const consentRows = Object.entries(consent).map(([category, c]) => ({ category, status: c.status, source: c.source, at: iso(c.at) }));
  if (json) {
    return JSON.stringify({
      contact: { id: contact.id, phone: who, name: contact.name, tags: contact.tags, attributes: contact.attributes, createdAt: iso(contact.createdAt) },
      consent: consentRows,
      recent: entries.map((e) => ({ at: iso(e.at), what: e.line })),
    }, null, 2);
  }
  return [
    `Contact #${contact.id} ${who}${contact.name ? ` (${contact.name})` : ''}${contact.tags.length > 0 ? ` · tags ${contact.tags.join(', ')}` : ''}`,
    'Consent:',
    ...(consentRows.length === 0 ? ['  none recorded'] : consentRows.map((c) => `  ${c.category.padEnd(15)} ${c.status.padEnd(8)} ${c.source} · ${c.at}`)),
    `Recent (newest first, at most ${RECENT}):`,
    ...(entries.length === 0 ? ['  nothing yet'] : entries.map((e) => `  ${iso(e.at)}  ${e.line}`)),
    'Why Pacer would or would not send now: pacer contact explain with the same number.',
  ].join('\n');
}

function describe(e: TimelineEntry): string {
  switch (e.type) {
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
