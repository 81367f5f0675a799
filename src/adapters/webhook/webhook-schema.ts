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

/**
 * A user's phone number as Meta names it (`wa_id`, `from`, `recipient_id`): digits only. Meta once sent
 * `""` for a user hidden behind a username; that is no number at all, read as absent. Anything else that
 * is not digits is refused (so it is never taken for a phone number), without echoing it: it may be personal.
 */
export const waIdField = z
  .string()
  .regex(/^(\d{1,20})?$/, { error: 'expected a phone number as digits (a wa_id); anything else is not a phone number' })
  .transform((value) => (value === '' ? null : value))
  .nullish();

const BSUID = '[A-Z]{2}(\\.[A-Za-z0-9]{1,128}){1,2}';
const BSUID_HINT = 'expected a business-scoped user id such as US.13491208655302741918';

/** A business-scoped user id (BSUID): country code, a dot, alphanumerics (`US.13491208655302741918`, parent `US.ENT.…`). */
export const bsuid = z.string().regex(new RegExp(`^${BSUID}$`), { error: BSUID_HINT });

/** An optional BSUID; `""` is absent, like an empty phone field. */
export const bsuidField = z
  .string()
  .regex(new RegExp(`^(${BSUID})?$`), { error: BSUID_HINT })
  .transform((value) => (value === '' ? null : value))
  .nullish();

/** A WhatsApp user: a phone-based `wa_id`, a business-scoped `user_id` (BSUID), or both. */
export const contactSchema = z
  .object({
    profile: z.object({ name: z.string().nullish(), username: z.string().nullish() }).nullish(),
    wa_id: waIdField,
    user_id: bsuidField,
    parent_user_id: bsuidField,
  })
  .refine((contact) => (contact.wa_id ?? null) !== null || (contact.user_id ?? null) !== null, {
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
