import { z } from 'zod';
import { bsuid, bsuidField, contactSchema, idString, metadataSchema, nonEmpty, unixMillis, waIdField } from './webhook-schema.js';

/**
 * Schemas for the fields other than `messages`. Event, score and category values are open strings:
 * Meta extends these lists, and an unknown value must reach the operator rather than be dropped.
 */

const optionalText = z.string().nullish();
/** Limits arrive as tier names (`TIER_2K`) or plain numbers depending on the field and API version. */
const limitValue = z.union([z.string(), z.number()]).transform(String).nullish();

/** `user_preferences`: the user stopped or resumed marketing from this business (or signed up through a link). */
export const userPreferenceSchema = z.object({
  wa_id: waIdField,
  user_id: bsuidField,
  detail: optionalText,
  category: optionalText,
  value: nonEmpty,
  timestamp: unixMillis,
  signup_id: optionalText,
});

export const userPreferencesValueSchema = z.object({
  messaging_product: optionalText,
  metadata: metadataSchema.nullish(),
  contacts: z.array(contactSchema).nullish(),
  user_preferences: z.array(userPreferenceSchema),
});

/** `user_id_update`: a user's BSUID was regenerated (they changed phone number); `wa_id` only when Meta may disclose it. */
export const userIdUpdateSchema = z.object({
  wa_id: waIdField,
  detail: optionalText,
  user_id: z.object({ previous: bsuid, current: bsuid }),
  parent_user_id: z.object({ previous: bsuidField, current: bsuidField }).nullish(),
  timestamp: unixMillis,
});

export const userIdUpdateValueSchema = z.object({
  messaging_product: optionalText,
  metadata: metadataSchema.nullish(),
  contacts: z.array(contactSchema).nullish(),
  user_id_update: z.array(userIdUpdateSchema),
});

const templateRef = {
  message_template_id: idString,
  message_template_name: optionalText,
  message_template_language: optionalText,
};

export const templateStatusValueSchema = z.object({
  ...templateRef,
  event: nonEmpty,
  reason: optionalText,
  message_template_category: optionalText,
  other_info: z.object({ title: optionalText, description: optionalText }).nullish(),
  rejection_info: z.object({ reason: optionalText, recommendation: optionalText }).nullish(),
  disable_info: z.object({ disable_date: z.union([z.string(), z.number()]).transform(String).nullish() }).nullish(),
});

export const templateQualityValueSchema = z.object({
  ...templateRef,
  previous_quality_score: optionalText,
  new_quality_score: nonEmpty,
});

/**
 * A notice (`correct_category` = the category to come, `new_category` = the current one) or a
 * completed change (`previous_category` → `new_category`).
 */
/** An edit: the new texts only (no components), so the template is fetched again. */
export const templateComponentsValueSchema = z.object({ ...templateRef });

export const templateCategoryValueSchema = z.object({
  ...templateRef,
  previous_category: optionalText,
  new_category: nonEmpty,
  correct_category: optionalText,
  category_update_timestamp: unixMillis.nullish(),
});

export const phoneQualityValueSchema = z.object({
  display_phone_number: optionalText,
  event: nonEmpty,
  current_limit: limitValue,
  old_limit: limitValue,
  max_daily_conversations_per_business: limitValue,
});

export const accountUpdateValueSchema = z.object({
  event: nonEmpty,
  restriction_info: z
    .array(z.object({ restriction_type: optionalText, expiration: unixMillis.nullish(), remediation: optionalText }))
    .nullish(),
  violation_info: z.object({ violation_type: optionalText }).nullish(),
  ban_info: z.object({ waba_ban_state: optionalText, waba_ban_date: optionalText }).nullish(),
});

export const businessCapabilityValueSchema = z.object({
  max_daily_conversations_per_business: limitValue,
  max_daily_conversation_per_phone: limitValue,
  max_phone_numbers_per_business: limitValue,
});
