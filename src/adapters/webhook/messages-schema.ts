import { z } from 'zod';
import { bsuidField, contactSchema, metadataSchema, metaErrorSchema, nonEmpty, unixMillis, waIdField } from './webhook-schema.js';

/** Schemas for `field: "messages"`: delivery statuses of what we sent, and what users send us. */

const optionalText = z.string().nullish();

/** One delivery status of an outbound message. `status` stays open: Meta added `played` in 2025 and may add more. */
export const statusSchema = z.object({
  id: nonEmpty,
  status: nonEmpty,
  timestamp: unixMillis,
  /** The user's phone number, or the group id for a group message: checked once the type is known (messages-items). */
  recipient_id: optionalText,
  /** Business-scoped user id (BSUID) of the recipient, for users known only by username. */
  recipient_user_id: bsuidField,
  recipient_parent_user_id: bsuidField,
  recipient_type: optionalText,
  recipient_participant_id: waIdField,
  recipient_participant_user_id: bsuidField,
  recipient_identity_key_hash: optionalText,
  /** Echo of the value we attached to the send; carries our own message id. */
  biz_opaque_callback_data: optionalText,
  /** Omitted from v24 on unless a free-entry-point window is open. */
  conversation: z
    .object({
      id: optionalText,
      expiration_timestamp: unixMillis.nullish(),
      origin: z.object({ type: optionalText }).nullish(),
    })
    .nullish(),
  pricing: z
    .object({
      billable: z.boolean().nullish(),
      pricing_model: optionalText,
      type: optionalText,
      category: optionalText,
    })
    .nullish(),
  errors: z.array(metaErrorSchema).nullish(),
});
export type MetaStatus = z.output<typeof statusSchema>;

const mediaSchema = z.object({
  id: optionalText,
  mime_type: optionalText,
  sha256: optionalText,
  caption: optionalText,
  filename: optionalText,
  url: optionalText,
  voice: z.boolean().nullish(),
  animated: z.boolean().nullish(),
});

export const MEDIA_TYPES = ['image', 'video', 'audio', 'document', 'sticker'] as const;

/** Present when the user came from a Click-to-WhatsApp ad (source_type `ad`, or `post` for a boosted post). */
const referralSchema = z.object({
  source_url: optionalText,
  source_id: optionalText,
  source_type: optionalText,
  headline: optionalText,
  body: optionalText,
  media_type: optionalText,
  ctwa_clid: optionalText,
});

const replySchema = z.object({ id: optionalText, title: optionalText, description: optionalText });

/** One message a user sent us. Type-specific bodies are all optional: Meta sometimes omits them (see `errors`). */
export const inboundMessageSchema = z.object({
  id: nonEmpty,
  timestamp: unixMillis,
  type: nonEmpty,
  /** Omitted (once `""`) for a user who hides their number behind a username. */
  from: waIdField,
  /** BSUID of a sender who may have no phone number on file. */
  from_user_id: bsuidField,
  context: z
    .object({
      from: optionalText,
      id: optionalText,
      forwarded: z.boolean().nullish(),
      frequently_forwarded: z.boolean().nullish(),
    })
    .nullish(),
  text: z.object({ body: z.string() }).nullish(),
  button: z.object({ payload: optionalText, text: optionalText }).nullish(),
  interactive: z
    .object({
      type: nonEmpty,
      button_reply: replySchema.nullish(),
      list_reply: replySchema.nullish(),
    })
    .nullish(),
  image: mediaSchema.nullish(),
  video: mediaSchema.nullish(),
  audio: mediaSchema.nullish(),
  document: mediaSchema.nullish(),
  sticker: mediaSchema.nullish(),
  referral: referralSchema.nullish(),
  reaction: z.object({ message_id: optionalText, emoji: optionalText }).nullish(),
  system: z.object({ type: optionalText, body: optionalText, wa_id: waIdField, user_id: bsuidField }).nullish(),
  errors: z.array(metaErrorSchema).nullish(),
});
export type MetaInboundMessage = z.output<typeof inboundMessageSchema>;

/** The `value` of a `messages` change: statuses, or contacts plus messages, and possibly change-wide errors. */
export const messagesValueSchema = z.object({
  messaging_product: optionalText,
  metadata: metadataSchema.nullish(),
  contacts: z.array(contactSchema).nullish(),
  statuses: z.array(statusSchema).nullish(),
  messages: z.array(inboundMessageSchema).nullish(),
  errors: z.array(metaErrorSchema).nullish(),
});
export type MessagesValue = z.output<typeof messagesValueSchema>;
