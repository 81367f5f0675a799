import { z } from 'zod';
import type { Millis } from '../../core/time.js';
import { completeKey, isEmptyKey } from './contact-key.js';
import { parseLenient } from './lenient-parse.js';
import {
  inboundMessageSchema,
  MEDIA_TYPES,
  messagesValueSchema,
  statusSchema,
  type MetaInboundMessage,
  type MetaStatus,
} from './messages-schema.js';
import { userIdUpdateSchema, userIdUpdateValueSchema, userPreferenceSchema, userPreferencesValueSchema } from './management-schema.js';
import type {
  ContactKey,
  InboundItem,
  StatusItem,
  UserIdChangeItem,
  WebhookError,
  WebhookItem,
  WebhookProblem,
  WebhookSource,
} from '../../ports/webhook-items.js';
import { formatPath, type Path } from './webhook-path.js';
import { waIdField, type MetaContact, type MetaError } from './webhook-schema.js';

/** Where a change sits and what surrounds it. */
export interface ChangeContext {
  wabaId: string;
  /** `entry[].time` in milliseconds, when present. */
  entryAt: Millis | null;
  /** Path of the change's `value`. */
  path: Path;
  problems: WebhookProblem[];
}

// Lists whose elements become items are walked one element at a time, so each item keeps its original index.
const rawList = z.array(z.unknown()).nullish();
const messagesContainer = messagesValueSchema.extend({ statuses: rawList, messages: rawList });
const preferencesContainer = userPreferencesValueSchema.extend({ user_preferences: z.array(z.unknown()) });
const userIdUpdateContainer = userIdUpdateValueSchema.extend({ user_id_update: z.array(z.unknown()) });

export function toWebhookError(error: MetaError): WebhookError {
  return {
    code: error.code,
    title: error.title ?? null,
    message: error.message ?? null,
    details: error.error_data?.details ?? null,
    href: error.href ?? null,
  };
}

function sourceOf(metadata: { phone_number_id: string } | null | undefined, ctx: ChangeContext): WebhookSource {
  // Meta always names the business number here; without it the items are still worth keeping.
  if (!metadata) ctx.problems.push({ path: formatPath([...ctx.path, 'metadata']), message: 'missing metadata.phone_number_id' });
  return { wabaId: ctx.wabaId, phoneNumberId: metadata?.phone_number_id ?? null };
}

function eachElement<S extends z.ZodType>(
  schema: S,
  list: readonly unknown[] | null | undefined,
  at: Path,
  problems: WebhookProblem[],
  visit: (parsed: z.output<S>, path: Path) => void,
): void {
  (list ?? []).forEach((raw, index) => {
    const path = [...at, index];
    const parsed = parseLenient(schema, raw, path, problems);
    if (parsed !== undefined) visit(parsed, path);
  });
}

/** `recipient_id` is the user's phone number unless the message went to a group (then it is the group id). */
function recipientPhone(s: MetaStatus, path: Path, problems: WebhookProblem[]): string | null {
  const checked = waIdField.safeParse(s.recipient_id);
  if (checked.success) return checked.data ?? null;
  problems.push({ path: formatPath([...path, 'recipient_id']), message: checked.error.issues[0]?.message ?? 'not a phone number' });
  return null;
}

function statusItem(
  s: MetaStatus,
  source: WebhookSource,
  path: Path,
  contacts: readonly MetaContact[],
  changeErrors: WebhookError[],
  problems: WebhookProblem[],
): StatusItem {
  const group = s.recipient_type === 'group';
  const key: ContactKey = group
    ? { waId: s.recipient_participant_id ?? null, userId: s.recipient_participant_user_id ?? null }
    : { waId: recipientPhone(s, path, problems), userId: s.recipient_user_id ?? null };
  const own = (s.errors ?? []).map(toWebhookError);
  return {
    kind: 'status',
    source,
    path: formatPath(path),
    messageId: s.id,
    status: s.status,
    at: s.timestamp,
    recipient: completeKey(key, contacts),
    groupId: group ? (s.recipient_id ?? null) : null,
    callbackData: s.biz_opaque_callback_data ?? null,
    pricing: s.pricing
      ? {
          billable: s.pricing.billable ?? null,
          model: s.pricing.pricing_model ?? null,
          type: s.pricing.type ?? null,
          category: s.pricing.category ?? null,
        }
      : null,
    conversation: s.conversation
      ? {
          id: s.conversation.id ?? null,
          expiresAt: s.conversation.expiration_timestamp ?? null,
          originType: s.conversation.origin?.type ?? null,
        }
      : null,
    // Meta may put a failed status's error on the change instead of the status itself.
    errors: own.length === 0 && s.status === 'failed' ? changeErrors : own,
  };
}

function inboundItem(m: MetaInboundMessage, source: WebhookSource, path: Path, from: ContactKey): InboundItem {
  const mediaType = MEDIA_TYPES.find((t) => t === m.type);
  const media = mediaType ? m[mediaType] : null;
  const reply = m.interactive?.button_reply ?? m.interactive?.list_reply ?? null;
  return {
    kind: 'inbound',
    source,
    path: formatPath(path),
    messageId: m.id,
    at: m.timestamp,
    type: m.type,
    from,
    text: m.text?.body ?? null,
    button: m.button ? { text: m.button.text ?? null, payload: m.button.payload ?? null } : null,
    interactive: m.interactive
      ? { type: m.interactive.type, id: reply?.id ?? null, title: reply?.title ?? null, description: reply?.description ?? null }
      : null,
    media:
      mediaType && media
        ? { type: mediaType, id: media.id ?? null, mimeType: media.mime_type ?? null, caption: media.caption ?? null }
        : null,
    referral: m.referral
      ? {
          sourceType: m.referral.source_type ?? null,
          sourceId: m.referral.source_id ?? null,
          sourceUrl: m.referral.source_url ?? null,
          ctwaClid: m.referral.ctwa_clid ?? null,
        }
      : null,
    context: m.context
      ? {
          from: m.context.from ?? null,
          messageId: m.context.id ?? null,
          forwarded: m.context.forwarded === true || m.context.frequently_forwarded === true,
        }
      : null,
    system: m.system
      ? {
          type: m.system.type ?? null,
          body: m.system.body ?? null,
          newWaId: m.system.wa_id ?? null,
          newUserId: m.system.user_id ?? null,
        }
      : null,
    errors: (m.errors ?? []).map(toWebhookError),
  };
}

/**
 * A `user_changed_user_id` notice names the new business-scoped id; the sender is still named by the
 * old one (as `from` names the old number in `user_changed_number`), so it moves the contact even
 * where `user_id_update` is not subscribed. Applied after the notice itself, which belongs to the old id.
 */
function userIdChangeOf(m: MetaInboundMessage, source: WebhookSource, path: Path, from: ContactKey): UserIdChangeItem | null {
  const current = m.system?.type === 'user_changed_user_id' ? (m.system.user_id ?? null) : null;
  if (current === null || from.userId === null || from.userId === current) return null;
  return {
    kind: 'user_id_change',
    source,
    path: formatPath([...path, 'system']),
    previousUserId: from.userId,
    currentUserId: current,
    waId: m.system?.wa_id ?? null,
    at: m.timestamp,
  };
}

/** `field: "messages"`: one item per status, per inbound message and per change-wide error. */
export function messagesItems(value: unknown, ctx: ChangeContext): WebhookItem[] {
  const parsed = parseLenient(messagesContainer, value, ctx.path, ctx.problems);
  if (parsed === undefined) return [];
  const source = sourceOf(parsed.metadata, ctx);
  const contacts = parsed.contacts ?? [];
  const changeErrors = (parsed.errors ?? []).map(toWebhookError);
  const items: WebhookItem[] = [];
  eachElement(statusSchema, parsed.statuses, [...ctx.path, 'statuses'], ctx.problems, (status, path) => {
    items.push(statusItem(status, source, path, contacts, changeErrors, ctx.problems));
  });
  eachElement(inboundMessageSchema, parsed.messages, [...ctx.path, 'messages'], ctx.problems, (message, path) => {
    const from = completeKey({ waId: message.from ?? null, userId: message.from_user_id ?? null }, contacts);
    if (isEmptyKey(from)) {
      // A `user_changed_user_id` notice may name only the new id; the change itself comes as `user_id_update`.
      if (message.type === 'system' && message.system?.type === 'user_changed_user_id') return;
      ctx.problems.push({
        path: formatPath([...path, 'from']),
        message: 'no sender: neither from nor from_user_id, and no contact matches',
      });
      return;
    }
    items.push(inboundItem(message, source, path, from));
    const change = userIdChangeOf(message, source, path, from);
    if (change !== null) items.push(change);
  });
  changeErrors.forEach((error, index) => {
    items.push({ kind: 'change_error', source, path: formatPath([...ctx.path, 'errors', index]), error });
  });
  return items;
}

/** `field: "user_preferences"`: one item per stop/resume/signup. */
export function userPreferenceItems(value: unknown, ctx: ChangeContext): WebhookItem[] {
  const parsed = parseLenient(preferencesContainer, value, ctx.path, ctx.problems);
  if (parsed === undefined) return [];
  const source = sourceOf(parsed.metadata, ctx);
  const contacts = parsed.contacts ?? [];
  const items: WebhookItem[] = [];
  eachElement(userPreferenceSchema, parsed.user_preferences, [...ctx.path, 'user_preferences'], ctx.problems, (pref, path) => {
    const contact = completeKey({ waId: pref.wa_id ?? null, userId: pref.user_id ?? null }, contacts);
    if (isEmptyKey(contact)) {
      ctx.problems.push({ path: formatPath([...path, 'wa_id']), message: 'no user: neither wa_id nor user_id, and no contact matches' });
      return;
    }
    items.push({
      kind: 'user_preference',
      source,
      path: formatPath(path),
      contact,
      value: pref.value,
      category: pref.category ?? null,
      detail: pref.detail ?? null,
      at: pref.timestamp,
      signupId: pref.signup_id ?? null,
    });
  });
  return items;
}

/** `field: "user_id_update"`: one item per regenerated business-scoped id. */
export function userIdUpdateItems(value: unknown, ctx: ChangeContext): WebhookItem[] {
  const parsed = parseLenient(userIdUpdateContainer, value, ctx.path, ctx.problems);
  if (parsed === undefined) return [];
  const source = sourceOf(parsed.metadata, ctx);
  const items: WebhookItem[] = [];
  eachElement(userIdUpdateSchema, parsed.user_id_update, [...ctx.path, 'user_id_update'], ctx.problems, (update, path) => {
    items.push({
      kind: 'user_id_change',
      source,
      path: formatPath(path),
      previousUserId: update.user_id.previous,
      currentUserId: update.user_id.current,
      waId: update.wa_id ?? null,
      at: update.timestamp,
    });
  });
  return items;
}
