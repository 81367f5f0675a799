import { z } from 'zod';

/**
 * Building blocks shared by every webhook field, and the envelope. Objects are not strict: Meta
 * adds properties without notice, and an unknown property must never cost us a status.
 */

export const WHATSAPP_OBJECT = 'whatsapp_business_account';

/** Year 5000 in seconds: anything larger is not a Unix time in seconds (milliseconds sent by mistake, garbage). */
const MAX_UNIX_SECONDS = 95_617_584_000;
const TIMESTAMP_HINT = 'expected Unix seconds (an integer or a string of digits)';

/** Meta sends Unix seconds, as a string on messages and statuses and as an integer elsewhere. Parsed to milliseconds. */
export const unixMillis = z
  .union(
    [
      z
        .number({ error: TIMESTAMP_HINT })
        .int({ error: TIMESTAMP_HINT })
        .min(0, { error: TIMESTAMP_HINT })
        .max(MAX_UNIX_SECONDS, { error: TIMESTAMP_HINT }),
      z.string().regex(/^\d{1,11}$/, { error: TIMESTAMP_HINT }),
    ],
    { error: TIMESTAMP_HINT },
  )
  .transform((seconds) => Number(seconds) * 1000)
  .refine((ms) => ms <= MAX_UNIX_SECONDS * 1000, { error: TIMESTAMP_HINT });

export const nonEmpty = z.string().min(1, { error: 'expected a non-empty string' });

/** Ids that Meta sends sometimes as numbers (template ids), kept as strings so they never lose digits downstream. */
export const idString = z.union([nonEmpty, z.number().int().nonnegative()]).transform(String);

/** Error codes are integers; tolerate a string of digits. */
const CODE_HINT = 'expected an integer error code';
const errorCode = z
  .union([z.number({ error: CODE_HINT }).int({ error: CODE_HINT }), z.string().regex(/^\d{1,15}$/, { error: CODE_HINT })], {
    error: CODE_HINT,
  })
  .transform(Number);

/** An error as Meta reports it in webhooks: on a failed status, an inbound message, or the whole change. */
export const metaErrorSchema = z.object({
  code: errorCode,
  title: z.string().nullish(),
  message: z.string().nullish(),
  error_data: z.object({ details: z.string().nullish() }).nullish(),
  href: z.string().nullish(),
});
export type MetaError = z.output<typeof metaErrorSchema>;

export const metadataSchema = z.object({
  display_phone_number: z.string().optional(),
  phone_number_id: nonEmpty,
});

/** A WhatsApp user: a phone-based `wa_id`, a business-scoped `user_id` (BSUID), or both. */
export const contactSchema = z
  .object({
    profile: z.object({ name: z.string().nullish(), username: z.string().nullish() }).nullish(),
    wa_id: nonEmpty.optional(),
    user_id: nonEmpty.optional(),
    parent_user_id: nonEmpty.optional(),
  })
  .refine((contact) => contact.wa_id !== undefined || contact.user_id !== undefined, {
    error: 'a contact needs wa_id or user_id',
  });
export type MetaContact = z.output<typeof contactSchema>;

export const envelopeSchema = z.object({
  object: z.literal(WHATSAPP_OBJECT),
  entry: z.array(z.unknown()),
});

export const entrySchema = z.object({
  /** The WhatsApp Business Account id. */
  id: idString,
  time: unixMillis.optional(),
  changes: z.array(z.unknown()),
});

export const changeSchema = z.object({
  field: nonEmpty,
  value: z.unknown(),
});
