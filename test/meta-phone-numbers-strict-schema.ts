import { z } from 'zod';

/**
 * Strict schemas of Meta's phone-number management answers, written from Meta's documentation as
 * `/work/shared/reference/meta-templates-numbers.md` §3.1–3.3 records it (WhatsApp Business Phone
 * Number API reference, "Business phone numbers", "Messaging limits", "Health status", the
 * account-number enum listing) and from Graph's cursor paging and error bodies. They are written
 * apart from the simulator and refuse any property or value Meta does not document, so they can
 * hold the simulator to Meta's shapes.
 */

const graphId = z.string().regex(/^\d{1,20}$/, 'a Graph id');
/** Formatted (`+1 555-555-5555`) or digits only, both documented. */
const displayNumber = z.string().regex(/^\+?\d[\d \-()]{5,24}$/, 'a display phone number');

/** `quality_rating`: GREEN/YELLOW/RED, `NA` (not yet determined) and `UNKNOWN` (PN-API, ACCT-NUM, BPN). */
const QUALITY_RATING = ['GREEN', 'YELLOW', 'RED', 'NA', 'UNKNOWN'] as const;
const STATUS = [
  'BANNED',
  'CONNECTED',
  'DELETED',
  'DISCONNECTED',
  'FLAGGED',
  'MIGRATED',
  'PENDING',
  'RATE_LIMITED',
  'RESTRICTED',
  'UNKNOWN',
  'UNVERIFIED',
] as const;
const NAME_STATUS = ['APPROVED', 'AVAILABLE_WITHOUT_REVIEW', 'DECLINED', 'EXPIRED', 'PENDING_REVIEW', 'NONE', 'NON_EXISTS'] as const;
/** ACCT-NUM and the PHP SDK list VERIFIED/NOT_VERIFIED/EXPIRED; PN-API v23 writes UNVERIFIED. */
const CODE_VERIFICATION = ['VERIFIED', 'NOT_VERIFIED', 'EXPIRED', 'UNVERIFIED'] as const;
const PLATFORM = ['CLOUD_API', 'ON_PREMISE', 'NOT_APPLICABLE'] as const;
/**
 * The deprecated per-number tier (ACCT-NUM), plus TIER_2K: since October 2025 the 2,000 level
 * replaced 1K, and Meta's tier enums (`phone_number_quality_update`, reference §2.5 of the other file) carry it.
 */
const LEGACY_TIER = ['TIER_50', 'TIER_250', 'TIER_1K', 'TIER_2K', 'TIER_10K', 'TIER_100K', 'TIER_UNLIMITED', 'TIER_NOT_SET'] as const;
/** `whatsapp_business_manager_messaging_limit` (ML; PHP SDK values). */
const PORTFOLIO_LIMIT = ['TIER_250', 'TIER_2K', 'TIER_10K', 'TIER_100K', 'TIER_UNLIMITED', 'UNTIERED'] as const;
/** HEALTH shows placeholders; the three values come from integrators' mirrors of it. */
const CAN_SEND = z.enum(['AVAILABLE', 'LIMITED', 'BLOCKED']);

const healthEntity = z.strictObject({
  entity_type: z.enum(['PHONE_NUMBER', 'WABA', 'BUSINESS', 'APP']),
  id: graphId,
  can_send_message: CAN_SEND,
  can_receive_call_sip: CAN_SEND.optional(),
  /** Present when the entity is limited or blocked; HEALTH does not spell out the items. */
  errors: z.array(z.record(z.string(), z.unknown())).min(1).optional(),
  additional_info: z.array(z.string().min(1)).min(1).optional(),
});

/** Every field the WhatsAppBusinessPhoneNumber node documents that the tests ask for; nothing else. */
export const phoneNumberNode = z.strictObject({
  id: graphId,
  display_phone_number: displayNumber.optional(),
  verified_name: z.string().min(1).optional(),
  quality_rating: z.enum(QUALITY_RATING).optional(),
  status: z.enum(STATUS).optional(),
  name_status: z.enum(NAME_STATUS).optional(),
  code_verification_status: z.enum(CODE_VERIFICATION).optional(),
  platform_type: z.enum(PLATFORM).optional(),
  throughput: z.strictObject({ level: z.enum(['STANDARD', 'HIGH']) }).optional(),
  account_mode: z.enum(['LIVE', 'SANDBOX']).optional(),
  is_official_business_account: z.boolean().optional(),
  messaging_limit_tier: z.enum(LEGACY_TIER).optional(),
  whatsapp_business_manager_messaging_limit: z.enum(PORTFOLIO_LIMIT).optional(),
  health_status: z
    .strictObject({ can_send_message: CAN_SEND, entities: z.array(healthEntity).min(1) })
    .superRefine((h, ctx) => {
      // The whole can send no better than its worst entity.
      const rank = { AVAILABLE: 2, LIMITED: 1, BLOCKED: 0 } as const;
      const worst = Math.min(...h.entities.map((e) => rank[e.can_send_message]));
      if (rank[h.can_send_message] !== worst)
        ctx.addIssue({ code: 'custom', message: 'can_send_message is not the worst of its entities' });
    })
    .optional(),
});

/** A `paging.next`/`previous` link: Graph's own host, the version, the WABA's edge, a cursor. */
function pageLink(cursor: 'after' | 'before') {
  return z
    .string()
    .regex(/^https:\/\/graph\.facebook\.com\/v\d+\.\d+\/\d+\/phone_numbers\?/, 'a Graph link to the phone_numbers edge')
    .refine((link) => new URL(link).searchParams.get(cursor) !== null, `a link with an ${cursor} cursor`);
}

/** One page of `GET /{WABA_ID}/phone_numbers` (§3.1): `data`, Graph's cursor `paging`, `summary` when asked for. */
export const phoneNumbersPage = z.strictObject({
  data: z.array(phoneNumberNode),
  paging: z
    .strictObject({
      cursors: z.strictObject({ before: z.string().min(1), after: z.string().min(1) }),
      previous: pageLink('before').optional(),
      next: pageLink('after').optional(),
    })
    .optional(),
  summary: z.strictObject({ total_count: z.number().int().nonnegative() }).optional(),
});

const fbtraceId = z.string().min(1);

/** Graph's refusal of a field the node does not have. */
export const nonexistingFieldError = z.strictObject({
  error: z.strictObject({
    message: z.string().regex(/^\(#100\) Tried accessing nonexisting field \([a-z_]+\) on node type \(WhatsAppBusinessPhoneNumber\)$/),
    type: z.literal('OAuthException'),
    code: z.literal(100),
    fbtrace_id: fbtraceId,
  }),
});

/** Graph's answer for an object that does not exist or that the token may not load (code 100, subcode 33). */
export const unsupportedRequestError = z.strictObject({
  error: z.strictObject({
    message: z
      .string()
      .regex(
        /^Unsupported (get|post|delete) request\. Object with ID '\d+' does not exist, cannot be loaded due to missing permissions, or does not support this operation\.( Please read the Graph API documentation at https:\/\/developers\.facebook\.com\/docs\/graph-api)?$/,
      ),
    type: z.literal('GraphMethodException'),
    code: z.literal(100),
    error_subcode: z.literal(33),
    fbtrace_id: fbtraceId,
  }),
});

/** An access token Graph cannot use (190). */
export const invalidTokenError = z.strictObject({
  error: z.strictObject({
    message: z.string().min(1),
    type: z.literal('OAuthException'),
    code: z.literal(190),
    error_subcode: z.number().int().optional(),
    fbtrace_id: fbtraceId,
  }),
});

/** The problems `schema` finds in `body`, as `path: message` lines (empty when it conforms). */
export function problems(schema: z.ZodType, body: unknown): string[] {
  const result = schema.safeParse(body);
  return result.success ? [] : result.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`);
}
