import type { ErrorClass } from '../core/error-class.js';

/**
 * The WhatsApp Cloud API as the app sees it: one call per message, one typed outcome per call.
 * Failures are values, never exceptions; whether and when to send again is the policy's decision,
 * so an implementation never retries on its own.
 */

/** Who receives the message: a phone number (`to`) or a business-scoped user id (`recipient`). */
export type Recipient = { kind: 'phone'; phone: string } | { kind: 'user_id'; userId: string };

/** `/messages` (Cloud API) or `/marketing_messages` (Marketing Messages API). */
export type SendEndpoint = 'messages' | 'marketing_messages';

export interface TemplateComponentParameter {
  type: string;
  [key: string]: unknown;
}

export interface TemplateComponent {
  type: string;
  sub_type?: string;
  index?: string;
  parameters?: readonly TemplateComponentParameter[];
}

interface SendBase {
  to: Recipient;
  /** Our message id, sent as `biz_opaque_callback_data` so every status webhook echoes it. */
  messageId: string;
}

export interface TemplateSend extends SendBase {
  type: 'template';
  endpoint: SendEndpoint;
  template: { name: string; language: string; components?: readonly TemplateComponent[] };
}

/** Free-form text: the `service` category, only inside the customer-service window. */
export interface TextSend extends SendBase {
  type: 'text';
  body: string;
  previewUrl?: boolean;
}

export type SendRequest = TemplateSend | TextSend;

/** `message_status` of an accepted send. */
export type AcceptedStatus = 'accepted' | 'held_for_quality_assessment' | 'paused';

export type TransportFailureReason =
  | 'timeout' // no answer in time
  | 'connection_reset' // the socket closed under the request
  | 'connection_refused' // nothing listening, or DNS/connect failure
  | 'non_json' // an answer that is not JSON (proxy error pages, truncated bodies)
  | 'unexpected_body' // JSON, but neither Meta's success nor its error shape
  | 'network_error'; // any other socket-level failure

export type SendResult =
  | {
      kind: 'accepted';
      /** The wamid Meta assigned. */
      wamid: string;
      messageStatus: AcceptedStatus;
      /** `contacts[0].wa_id` (may differ from the number sent), or null when absent. */
      waId: string | null;
      /** `contacts[0].user_id` when Meta returns a business-scoped user id. */
      userId: string | null;
      httpStatus: number;
    }
  | {
      kind: 'rejected';
      /** `error.code`: the only field the classification keys on. */
      code: number;
      errorClass: ErrorClass;
      message: string;
      type: string | null;
      details: string | null;
      fbtraceId: string | null;
      isTransient: boolean | null;
      /** Kept for logs only; never used to classify. */
      httpStatus: number;
    }
  | {
      kind: 'transport_failure';
      reason: TransportFailureReason;
      /** Every transport failure is transient: the request may or may not have reached Meta. */
      transient: true;
      /** A short description without secrets or phone numbers. */
      detail: string;
      httpStatus: number | null;
    };

export interface CloudApi {
  send(request: SendRequest): Promise<SendResult>;
  /** Closes pooled connections; pending sends settle first. */
  close(): Promise<void>;
}

/** A Graph API call that did not answer as asked: the same shapes a send's failures have. */
export type ApiFailure = Extract<SendResult, { kind: 'rejected' | 'transport_failure' }>;

/** One page of `GET /{WABA_ID}/message_templates`: Meta's template objects, unread. */
export interface TemplatePage {
  data: unknown[];
  /** `paging.cursors.after`: where the next page starts. */
  after: string | null;
  /** `paging.next`: present only when there is a next page. */
  next: string | null;
}

/** The WhatsApp Business Account's message templates (needs `whatsapp_business_management`). */
export interface TemplateApi {
  listTemplates(wabaId: string, after?: string): Promise<{ kind: 'ok'; page: TemplatePage } | ApiFailure>;
  /** `GET /{TEMPLATE_ID}`: one template object, unread. */
  getTemplate(id: string): Promise<{ kind: 'ok'; template: unknown } | ApiFailure>;
  /** `POST /{TEMPLATE_ID}`: edits the template; Meta answers `{ "success": true }`. */
  editTemplate(id: string, edit: TemplateEdit): Promise<{ kind: 'ok' } | ApiFailure>;
  close(): Promise<void>;
}

/** What an edit changes, in Meta's field names; only the time-to-live so far. */
export interface TemplateEdit {
  /** Seconds Meta retries an undeliverable message (1-second steps; -1: 30 days, for authentication and utility). */
  message_send_ttl_seconds: number;
}

/** A file to upload, already checked against Meta's types and sizes. */
export interface MediaFile {
  bytes: Uint8Array;
  fileName: string;
  mimeType: string;
}

/** `POST /{PHONE_NUMBER_ID}/media`: media ids for headers, kept by Meta for 30 days. */
export interface MediaApi {
  upload(phoneNumberId: string, file: MediaFile): Promise<{ kind: 'ok'; id: string } | ApiFailure>;
  close(): Promise<void>;
}

/** One page of `GET /{WABA_ID}/phone_numbers`: Meta's phone-number objects, unread. */
export interface PhoneNumberPage {
  data: unknown[];
  /** `paging.cursors.after`, when `paging.next` says there is a next page. */
  after: string | null;
}

/** The account's phone numbers and what Meta says of each (quality, status, throughput, limit). */
export interface PhoneNumberApi {
  listPhoneNumbers(wabaId: string, after?: string): Promise<{ kind: 'ok'; page: PhoneNumberPage } | ApiFailure>;
  /** `GET /{PHONE_NUMBER_ID}`: one phone-number object, unread. */
  getPhoneNumber(phoneNumberId: string): Promise<{ kind: 'ok'; number: unknown } | ApiFailure>;
  close(): Promise<void>;
}
