import type { Millis } from '../../core/time.js';
import { ERROR_DOCS_HREF, errorText } from './error-texts.js';

/** Shapes follow Meta's webhooks and send API exactly (reference §2 and §4; fixtures in shared/). */

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
  recipient_id: string;
  biz_opaque_callback_data?: string;
  pricing?: Pricing;
  errors?: StatusError[];
}

export interface WebhookContact {
  profile: { name: string };
  wa_id: string;
  user_id: string;
}

export type InboundMessage =
  | { from: string; id: string; timestamp: string; type: 'text'; text: { body: string }; context?: { from: string; id: string } }
  | {
      context: { from: string; id: string };
      from: string;
      id: string;
      timestamp: string;
      type: 'button';
      button: { payload: string; text: string };
    };

/** One thing to post: statuses are grouped into one change; the rest each get their own change. */
export type OutEvent =
  | { kind: 'status'; status: StatusObject }
  | { kind: 'inbound'; contact: WebhookContact; message: InboundMessage }
  | { kind: 'preference'; contact: WebhookContact; value: 'stop' | 'resume'; at: Millis }
  | { kind: 'account'; field: string; value: Record<string, unknown>; at: Millis };

export function unixSeconds(ms: Millis): number {
  return Math.floor(ms / 1000);
}

export function statusError(code: number): StatusError {
  const t = errorText(code);
  return { code, title: t.title, message: t.title, error_data: { details: t.details }, href: ERROR_DOCS_HREF };
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

/** The full webhook body for a batch of events, as one entry of the business account. */
export function webhookBody(who: NumberIdentity, events: readonly OutEvent[]): Record<string, unknown> {
  const metadata = { display_phone_number: who.displayPhoneNumber, phone_number_id: who.phoneNumberId };
  const changes: Array<{ value: Record<string, unknown>; field: string }> = [];
  const statuses = events.flatMap((e) => (e.kind === 'status' ? [e.status] : []));
  if (statuses.length > 0) changes.push({ value: { messaging_product: 'whatsapp', metadata, statuses }, field: 'messages' });
  let time: number | null = null;
  for (const e of events) {
    switch (e.kind) {
      case 'status':
        break;
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
                wa_id: e.contact.wa_id,
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
