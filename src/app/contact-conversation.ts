import type { InboundMessage, TimelineEntry } from '../ports/store.js';

export type ConversationEntry = TimelineEntry | { type: 'inbound'; at: number; message: InboundMessage };

/** Our decisions and messages, their statuses, consent changes and the contact's replies, newest first. */
export function mergeConversation(
  timeline: readonly TimelineEntry[],
  inbound: readonly InboundMessage[],
  limit: number,
): ConversationEntry[] {
  const entries: ConversationEntry[] = [...timeline, ...inbound.map((m) => ({ type: 'inbound' as const, at: m.at, message: m }))];
  return entries.sort((a, b) => b.at - a.at).slice(0, limit);
}
