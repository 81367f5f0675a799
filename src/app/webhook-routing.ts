import type { Sender } from '../ports/store.js';
import type { WebhookItem } from '../ports/webhook-items.js';

/**
 * Why a payload names a number or account Pacer does not send from, or null when every item is
 * Pacer's. Only once numbers have been read from Meta (`pacer sender sync`) does Pacer know which
 * numbers and accounts are its own; until then (one configured number) everything is applied as
 * before. Such a payload is kept (quarantined, replayable after a sync), never applied to another
 * number.
 */
export function unknownNumberIn(items: readonly WebhookItem[], senders: readonly Sender[]): string | null {
  if (!senders.some((s) => s.syncedAt !== null)) return null;
  const numbers = new Set(senders.map((s) => s.phoneNumberId));
  const accounts = new Set(senders.map((s) => s.businessAccountId).filter((a): a is string => a !== null));
  for (const item of items) {
    const { phoneNumberId, wabaId } = item.source;
    if (phoneNumberId !== null && !numbers.has(phoneNumberId))
      return `for phone number id ${phoneNumberId}, which is not one of Pacer's numbers: run pacer sender sync, then pacer webhooks replay`;
    if (phoneNumberId === null && wabaId !== '' && !accounts.has(wabaId) && !senders.some((s) => s.businessAccountId === null))
      return `for business account ${wabaId}, which is not one of Pacer's accounts: check PACER_ACCOUNTS_FILE, run pacer sender sync, then pacer webhooks replay`;
  }
  return null;
}
