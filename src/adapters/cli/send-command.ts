import { randomUUID } from 'node:crypto';
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { recipientRegion } from '../../app/recipient-region.js';
import { loadContactState } from '../../app/update-contact-state.js';
import type { Category } from '../../core/category.js';
import { decide } from '../../core/decide.js';
import type { Policy } from '../../core/policy.js';
import { iso } from '../../core/time.js';
import type { JsonObject, Store } from '../../ports/store.js';
import { mask } from './contact-command.js';
import { CliFailure, EXIT } from './exit-codes.js';

export interface SendOptions {
  to: string;
  category: Category;
  template?: string;
  language?: string;
  text?: string;
  key?: string;
  phoneNumberId: string;
}

/**
 * `pacer send`: queues one message in the outbox, where the running server's dispatcher sends it
 * through the same decision as campaigns. Prints what `decide` says about it right now.
 */
export async function sendCommand(store: Store, o: SendOptions, policy: Policy, now: number, json: boolean): Promise<string> {
  if ((o.template === undefined) === (o.text === undefined)) throw new CliFailure('Give either --template NAME (with --language) or --text "...".', EXIT.usage);
  if (o.text !== undefined && o.category !== 'service') throw new CliFailure('Free-form --text is a service message: use --category service (it goes only inside the 24 h window).', EXIT.usage);
  if (o.template !== undefined && o.category === 'service') throw new CliFailure('Templates are marketing, utility or authentication: pick one of those with --category.', EXIT.usage);
  const phone = parsePhoneNumberFromString(o.to.trim().startsWith('+') ? o.to.trim() : `+${o.to.replace(/\D/g, '')}`);
  if (!phone?.isValid()) throw new CliFailure(`--to ${mask(o.to)} is not a valid phone number in international format (+ and country code).`, EXIT.usage);
  const existing = await store.findContact({ phoneE164: phone.number });
  const contactId = existing?.id ?? (await store.upsertContacts([{ phoneE164: phone.number, waId: phone.number.slice(1) }], now)).ids[0];
  if (contactId === undefined) throw new CliFailure('could not record the contact');
  const intent: JsonObject = o.text !== undefined
    ? { phoneNumberId: o.phoneNumberId, text: o.text }
    : { phoneNumberId: o.phoneNumberId, template: { name: o.template ?? '', language: o.language ?? 'en_US' } };
  const key = o.key ?? `cli-${randomUUID()}`;
  const { inserted } = await store.insertOutbox([{ campaignId: null, contactId, senderId: null, category: o.category, intent, idempotencyKey: key, nextAttemptAt: now }], now);
  const template = o.template === undefined ? null : await store.getTemplate(o.template, o.language ?? 'en_US');
  const decision = decide(await loadContactState(store, contactId), {
    category: o.category,
    kind: o.text !== undefined ? 'freeform' : 'template',
    recipientRegion: recipientRegion(phone.number),
    template: o.template === undefined ? null : { status: template?.status ?? 'unknown', pausedUntil: template?.pausedUntil ?? null },
    sender: { state: 'ok' },
    capAttempts: 0,
    marketingApiRefused: false,
  }, now, policy);
  const until = 'until' in decision && decision.until !== null ? iso(decision.until) : null;
  const result = { queued: inserted === 1, idempotencyKey: key, to: mask(phone.number), category: o.category, decision: { kind: decision.kind, reason: decision.reason, until, explanation: decision.explanation } };
  if (json) return JSON.stringify(result, null, 2);
  const head = inserted === 1 ? `Queued ${o.category} message to ${result.to} (key ${key}).` : `Already queued under key ${key}; nothing added.`;
  return `${head}\nRight now Pacer ${decision.kind === 'send' ? 'would send it' : `would ${decision.kind} it${until ? ` until ${until}` : ''}`}: ${decision.explanation}\nThe running server (pacer serve) dispatches it.`;
}
