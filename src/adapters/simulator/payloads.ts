import type { Millis } from '../../core/time.js';
import { ERROR_DOCS_HREF, errorText } from './error-texts.js';

/**
 * Shapes follow Meta's webhooks and send API exactly (reference §2 and §4); `test/meta-webhook-strict.test.ts`
 * holds every body the simulator posts to a strict schema written from Meta's documentation.
 */

export interface NumberIdentity {
  wabaId: string;
  phoneNumberId: string;
  displayPhoneNumber: string;
}

export type PricingCategory = 'marketing' | 'marketing_lite' | 'utility' | 'authentication' | 'service';
export type PricingType = 'regular' | 'free_customer_service';

export interface Pricing {
  billable: boolean;
  pricing_model: 'PMP';
  type: PricingType;
  category: PricingCategory;
}

export interface StatusError {
  code: number;
  title: string;
  message: string;
  error_data: { details: string };
  href: string;
}

export interface StatusObject {
  id: string;
  status: 'sent' | 'delivered' | 'read' | 'failed';
  timestamp: string;
  /**
   * The recipient's phone digits; absent (or `""`) for a username user whose number is withheld, and
   * when a message to an unknown business-scoped id fails.
   */
  recipient_id?: string;
  /** The recipient's business-scoped id: on every status but a failed one sent to a phone number. */
  recipient_user_id?: string;
  biz_opaque_callback_data?: string;
  pricing?: Pricing;
  errors?: StatusError[];
}

export interface WebhookContact {
  profile: { name: string; username?: string };
  /** Absent (or `""`) while a username user's number is withheld. */
  wa_id?: string;
  user_id: string;
}

/** Meta names the sender by phone (`from`) and by business-scoped id (`from_user_id`, always). */
export type InboundMessage =
  | {
      from?: string;
      from_user_id: string;
      id: string;
      timestamp: string;
      type: 'text';
      text: { body: string };
      context?: { from: string; id: string };
    }
  | {
      context: { from: string; id: string };
      from?: string;
      from_user_id: string;
      id: string;
      timestamp: string;
      type: 'button';
      button: { payload: string; text: string };
    };

/** One thing to post; each becomes one change of the body. */
export type OutEvent =
  | { kind: 'status'; status: StatusObject }
  | { kind: 'inbound'; contact: WebhookContact; message: InboundMessage }
  | { kind: 'preference'; contact: WebhookContact; value: 'stop' | 'resume'; at: Millis }
  | { kind: 'account'; field: string; value: Record<string, unknown>; at: Millis };

export function unixSeconds(ms: Millis): number {
  return Math.floor(ms / 1000);
}

export function statusError(code: number, details?: string): StatusError {
  const t = errorText(code);
  return { code, title: t.title, message: t.title, error_data: { details: details ?? t.details }, href: ERROR_DOCS_HREF };
}

/** A Graph API error answer for a synchronous failure. */
export function apiErrorBody(code: number, fbtraceId: string, details?: string): Record<string, unknown> {
  const t = errorText(code);
  const error: Record<string, unknown> = { message: `(#${code}) ${t.title}`, type: 'OAuthException', code };
  if (code !== 190) error.error_data = { messaging_product: 'whatsapp', details: details ?? t.details };
  if (t.transient) error.is_transient = true;
  error.fbtrace_id = fbtraceId;
  return { error };
}

export function sendSuccessBody(input: string, contact: { wa_id: string } | { user_id: string }, wamid: string): Record<string, unknown> {
  return {
    messaging_product: 'whatsapp',
    contacts: [{ input, ...contact }],
    messages: [{ id: wamid, message_status: 'accepted' }],
  };
}

/**
 * A failed status carries no `contacts`; every other status names its recipient there by phone and
 * business-scoped id, as the status itself does (reference: BSUID §6.4).
 */
function statusContacts(s: StatusObject): Array<{ wa_id?: string; user_id: string }> | null {
  if (s.status === 'failed' || s.recipient_user_id === undefined) return null;
  return [{ ...(s.recipient_id === undefined ? {} : { wa_id: s.recipient_id }), user_id: s.recipient_user_id }];
}

/**
 * The full webhook body for a batch of events, as one entry of the business account. Each status
 * gets its own change, so a change's `contacts` always describe its one status.
 */
export function webhookBody(who: NumberIdentity, events: readonly OutEvent[]): Record<string, unknown> {
  const metadata = { display_phone_number: who.displayPhoneNumber, phone_number_id: who.phoneNumberId };
  const changes: Array<{ value: Record<string, unknown>; field: string }> = [];
  let time: number | null = null;
  for (const e of events) {
    switch (e.kind) {
      case 'status': {
        const contacts = statusContacts(e.status);
        changes.push({
          value: { messaging_product: 'whatsapp', metadata, ...(contacts === null ? {} : { contacts }), statuses: [e.status] },
          field: 'messages',
        });
        break;
      }
      case 'inbound':
        changes.push({
          value: { messaging_product: 'whatsapp', metadata, contacts: [e.contact], messages: [e.message] },
          field: 'messages',
        });
        break;
      case 'preference':
        changes.push({
          value: {
            messaging_product: 'whatsapp',
            metadata,
            contacts: [e.contact],
            user_preferences: [
              {
                ...(e.contact.wa_id === undefined ? {} : { wa_id: e.contact.wa_id }),
                user_id: e.contact.user_id,
                detail: `User requested to ${e.value} marketing messages`,
                category: 'marketing_messages',
                value: e.value,
                timestamp: unixSeconds(e.at),
              },
            ],
          },
          field: 'user_preferences',
        });
        break;
      case 'account':
        changes.push({ value: e.value, field: e.field });
        time = unixSeconds(e.at);
        break;
    }
  }
  // Account-level fields carry `entry[].time`, as in Meta's template and quality webhooks.
  const entry = time === null ? { id: who.wabaId, changes } : { id: who.wabaId, time, changes };
  return { object: 'whatsapp_business_account', entry: [entry] };
}
