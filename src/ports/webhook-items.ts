import type { Millis } from '../core/time.js';

// The normalised webhook items: what the webhook adapter's parser hands the app. Types only; the
// schemas that read Meta's payloads stay in the adapter.

/** Something in a webhook body that could not be used: where (exact field path) and what is wrong. */
export interface WebhookProblem {
  path: string;
  message: string;
}

/**
 * Who a fact is about. `userId` (the business-scoped id, BSUID) is the identity where Meta gives one;
 * `waId` (the phone number, digits only) is an alias. An empty or non-digit phone field is never a `waId`.
 */
export interface ContactKey {
  waId: string | null;
  userId: string | null;
}

/** The account and number a change came from. */
export interface WebhookSource {
  /** WhatsApp Business Account id (`entry[].id`). */
  wabaId: string;
  /** Business phone number id from `metadata`; null for account-level fields. */
  phoneNumberId: string | null;
}

export interface WebhookError {
  code: number;
  title: string | null;
  message: string | null;
  details: string | null;
  href: string | null;
}

interface ItemBase {
  source: WebhookSource;
  /** Where the item sits in the body, e.g. `entry[0].changes[1].value.statuses[2]`. */
  path: string;
}

export interface StatusItem extends ItemBase {
  kind: 'status';
  messageId: string;
  /** `sent`, `delivered`, `read`, `played`, `failed`, or a value Meta added later. */
  status: string;
  at: Millis;
  /** The user; for a group message, the participant. Both null when Meta omitted every identifier. */
  recipient: ContactKey;
  /** Group id when `recipient_type` is `group`. */
  groupId: string | null;
  callbackData: string | null;
  pricing: { billable: boolean | null; model: string | null; type: string | null; category: string | null } | null;
  conversation: { id: string | null; expiresAt: Millis | null; originType: string | null } | null;
  errors: WebhookError[];
}

export interface InboundItem extends ItemBase {
  kind: 'inbound';
  messageId: string;
  at: Millis;
  /** Meta's message type (`text`, `button`, `interactive`, `image`, `system`, `unsupported`, ...). */
  type: string;
  from: ContactKey;
  text: string | null;
  /** Quick-reply tap on a template button. */
  button: { text: string | null; payload: string | null } | null;
  /** Reply to an interactive button or list. */
  interactive: { type: string; id: string | null; title: string | null; description: string | null } | null;
  media: { type: string; id: string | null; mimeType: string | null; caption: string | null } | null;
  /** Click-to-WhatsApp ad the user came from. */
  referral: { sourceType: string | null; sourceId: string | null; sourceUrl: string | null; ctwaClid: string | null } | null;
  context: { from: string | null; messageId: string | null; forwarded: boolean } | null;
  system: { type: string | null; body: string | null; newWaId: string | null; newUserId: string | null } | null;
  errors: WebhookError[];
}

/** An error Meta attached to a whole `messages` change (`value.errors`). */
export interface ChangeErrorItem extends ItemBase {
  kind: 'change_error';
  error: WebhookError;
}

export interface UserPreferenceItem extends ItemBase {
  kind: 'user_preference';
  contact: ContactKey;
  /** `stop`, `resume`, `signup`, or a value Meta added later. */
  value: string;
  category: string | null;
  detail: string | null;
  at: Millis;
  signupId: string | null;
}

/** `user_id_update`: the user changed phone number, so Meta regenerated their business-scoped id. */
export interface UserIdChangeItem extends ItemBase {
  kind: 'user_id_change';
  previousUserId: string;
  currentUserId: string;
  /** The user's (new) phone number, when Meta may disclose it. */
  waId: string | null;
  at: Millis;
}

interface TemplateRef {
  templateId: string;
  name: string | null;
  language: string | null;
  /** `entry[].time`, when Meta sent it. */
  at: Millis | null;
}

export interface TemplateStatusItem extends ItemBase, TemplateRef {
  kind: 'template_status';
  event: string;
  reason: string | null;
  category: string | null;
  otherInfo: { title: string | null; description: string | null } | null;
  rejectionInfo: { reason: string | null; recommendation: string | null } | null;
  disableDate: string | null;
}

export interface TemplateQualityItem extends ItemBase, TemplateRef {
  kind: 'template_quality';
  previousScore: string | null;
  newScore: string;
}

export interface TemplateCategoryItem extends ItemBase, TemplateRef {
  kind: 'template_category';
  previousCategory: string | null;
  /** On a notice this is the category still in effect; `correctCategory` is the one to come. */
  newCategory: string;
  correctCategory: string | null;
  effectiveAt: Millis | null;
}

/** The template was edited; the webhook carries only its new texts. */
export interface TemplateComponentsItem extends ItemBase, TemplateRef {
  kind: 'template_components';
}

export interface PhoneQualityItem extends ItemBase {
  kind: 'phone_quality';
  at: Millis | null;
  displayPhoneNumber: string | null;
  event: string;
  currentLimit: string | null;
  oldLimit: string | null;
  maxDailyConversations: string | null;
}

export interface AccountUpdateItem extends ItemBase {
  kind: 'account_update';
  at: Millis | null;
  event: string;
  restrictions: { type: string | null; expiresAt: Millis | null; remediation: string | null }[];
  violationType: string | null;
  banState: string | null;
  banDate: string | null;
  /** Every other property of the change value, unparsed, for display. */
  details: Record<string, unknown>;
}

export interface BusinessCapabilityItem extends ItemBase {
  kind: 'business_capability';
  at: Millis | null;
  maxDailyConversations: string | null;
  maxDailyConversationsPerPhone: string | null;
  maxPhoneNumbers: string | null;
}

/** A field we subscribe to or receive but do not act on; kept so it shows in the inbox. */
export interface IgnoredItem extends ItemBase {
  kind: 'ignored';
  field: string;
  at: Millis | null;
}

export type WebhookItem =
  | StatusItem
  | InboundItem
  | ChangeErrorItem
  | UserPreferenceItem
  | UserIdChangeItem
  | TemplateStatusItem
  | TemplateQualityItem
  | TemplateCategoryItem
  | TemplateComponentsItem
  | PhoneQualityItem
  | AccountUpdateItem
  | BusinessCapabilityItem
  | IgnoredItem;

export type WebhookItemKind = WebhookItem['kind'];

export interface ParsedWebhook {
  items: WebhookItem[];
  problems: WebhookProblem[];
}

/** Reads one webhook body (already JSON-decoded) into items; never throws on a malformed body. */
export type ParseWebhook = (body: unknown) => ParsedWebhook;
