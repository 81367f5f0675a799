import { z } from 'zod';

/**
 * Strict schemas of the webhook bodies Meta posts to a WhatsApp Business app, written from Meta's
 * webhook references (status messages, incoming messages, `user_preferences`, template status,
 * quality and category updates, `phone_number_quality_update`, `account_update`) and its notes on
 * business-scoped user ids (BSUIDs). They are deliberately independent of the lenient parser in
 * `src/adapters/webhook`, which must accept whatever Meta adds: these refuse any property, value or
 * format Meta does not document, so they can hold the simulator to Meta's shapes.
 *
 * Two profiles:
 * - `documented` accepts every shape Meta has documented, older API versions included (CBP pricing,
 *   `conversation` on every status, no business-scoped ids, `current_limit`), as the real fixtures
 *   in `test/fixtures/meta-webhooks` show them;
 * - `current` is what Meta documents for v24+ with business-scoped ids (the simulator's claim): a
 *   `user_id` on every contact, `from_user_id` on every inbound message, `recipient_user_id` and
 *   `contacts` on every status but a failed one, PMP pricing with a `type`, `conversation` only in a
 *   free-entry-point window, no `current_limit`/`old_limit` (removed February 2026).
 *
 * Where a real fixture and the documentation disagree the schema follows the fixture; each such
 * place says so.
 */
export type Profile = 'documented' | 'current';

const WA_ID = /^[1-9]\d{6,14}$/;
/** Digits only, no `+`: the wa_id of E.164 numbers. */
const waId = z.string().regex(WA_ID, 'a wa_id: the phone number as digits only');
/**
 * A user's phone field (`wa_id`, `from`, `recipient_id`). Before February 2026 Meta documented `""` for
 * a user hidden behind a username; it now omits the field, so only `documented` accepts the empty string.
 */
const phoneField = (p: Profile) => (p === 'current' ? waId : z.union([waId, z.literal('')])).optional();
/** Whether a phone field names a number: absent and `""` both do not. */
const hasPhone = (value: string | undefined): boolean => value !== undefined && value !== '';
/** Country code, a dot, up to 128 alphanumerics, e.g. `US.13491208655302741918`. */
const bsuid = z.string().regex(/^[A-Z]{2}\.[A-Za-z0-9]{1,128}$/, 'a business-scoped user id (CC.digits)');
const parentBsuid = z.string().regex(/^[A-Z]{2}\.ENT\.[A-Za-z0-9]{1,128}$/, 'a parent business-scoped user id (CC.ENT.digits)');
const digits = z.string().regex(/^\d+$/, 'digits only');
/** Graph object ids (business account, phone number, media, catalogue): decimal digits. */
const graphId = z.string().regex(/^\d{1,20}$/, 'a Graph id');
/** Unix seconds as a string (messages and statuses), 2001 to 2286. */
const unixString = z.string().regex(/^[1-9]\d{9}$/, 'Unix seconds as a string of ten digits');
/** Unix seconds as a JSON number (management fields, `user_preferences`). */
const unixInt = z.number().int().min(1_000_000_000).max(9_999_999_999);
const wamid = z.string().regex(/^wamid\.[A-Za-z0-9+/=_-]+$/, 'a wamid');
/** Template ids are JSON numbers in webhooks; Meta's are 15–16 digits, still safe integers. */
const templateId = z.number().int().positive().refine(Number.isSafeInteger, 'a safe integer');
const templateName = z.string().regex(/^[a-z0-9_]{1,512}$/, 'a template name (lower case, digits, _)');
/** `en`, `en_US`, `pt_BR`, `zh_Hant`; webhook examples also write `en-US`. */
const locale = z.string().regex(/^[a-z]{2,3}([_-]([A-Z]{2}|[A-Z][a-z]{3}))?$/, 'a template locale');
const href = z.string().regex(/^(https:\/\/|\/)\S+$/, 'a link to the error-code page');
const text = z.string().min(1);

const TEMPLATE_CATEGORY = ['MARKETING', 'UTILITY', 'AUTHENTICATION'] as const;
const PRICING_CATEGORY = [
  'authentication',
  'authentication_international',
  'marketing',
  'marketing_lite',
  'utility',
  'service',
  'referral_conversion',
] as const;
const QUALITY_SCORE = ['GREEN', 'YELLOW', 'RED', 'UNKNOWN'] as const;

function issue(ctx: z.RefinementCtx, message: string, path: PropertyKey[] = []): void {
  ctx.addIssue({ code: 'custom', message, path });
}

/**
 * `{code, title, message, error_data.details, href}`; `href` is missing from the real inbound-message errors,
 * so only statuses require it.
 */
function errorObject(hrefRequired: boolean) {
  return z.strictObject({
    code: z.number().int().nonnegative(),
    title: text,
    message: text,
    error_data: z.strictObject({ details: text }),
    href: hrefRequired ? href : href.optional(),
  });
}

const metadata = z.strictObject({ display_phone_number: digits, phone_number_id: graphId });

function contactSchema(p: Profile) {
  return z
    .strictObject({
      profile: z.strictObject({ name: text.optional(), username: text.optional() }).optional(),
      wa_id: phoneField(p),
      user_id: p === 'current' ? bsuid : bsuid.optional(),
      parent_user_id: parentBsuid.optional(),
      identity_key_hash: text.optional(),
    })
    .refine((c) => hasPhone(c.wa_id) || c.user_id !== undefined, 'a contact needs wa_id or user_id');
}
type Contact = z.output<ReturnType<typeof contactSchema>>;

// ---- statuses -------------------------------------------------------------------------------

const pmpPricing = z
  .strictObject({
    /** Deprecated in favour of `type`, still sent. */
    billable: z.boolean().optional(),
    pricing_model: z.literal('PMP'),
    type: z.enum(['regular', 'free_customer_service', 'free_entry_point']),
    category: z.enum(PRICING_CATEGORY),
  })
  .refine((p) => p.billable === undefined || p.billable === (p.type === 'regular'), 'billable exactly when the type is regular');
/** Conversation-based pricing: webhooks sent before July 2025 (the real fixtures). */
const cbpPricing = z.strictObject({ billable: z.boolean(), pricing_model: z.literal('CBP'), category: z.enum(PRICING_CATEGORY) });

const conversation = z.strictObject({
  id: text,
  /** Only on `sent`. */
  expiration_timestamp: unixString.optional(),
  origin: z.strictObject({ type: z.enum(PRICING_CATEGORY) }),
});

function statusSchema(p: Profile) {
  return z
    .strictObject({
      id: wamid,
      status: z.enum(['sent', 'delivered', 'read', 'failed', 'played']),
      timestamp: unixString,
      /** The phone digits, or a group's id when `recipient_type` is `group`. */
      recipient_id: (p === 'current' ? text : z.string()).optional(),
      recipient_user_id: bsuid.optional(),
      recipient_parent_user_id: parentBsuid.optional(),
      recipient_type: z.enum(['individual', 'group']).optional(),
      recipient_participant_id: waId.optional(),
      recipient_participant_user_id: bsuid.optional(),
      recipient_participant_parent_user_id: parentBsuid.optional(),
      recipient_identity_key_hash: text.optional(),
      biz_opaque_callback_data: z.string().min(1).max(512).optional(),
      conversation: conversation.optional(),
      pricing: (p === 'current' ? pmpPricing : z.union([pmpPricing, cbpPricing])).optional(),
      errors: z.array(errorObject(true)).min(1).optional(),
    })
    .superRefine((s, ctx) => {
      const group = s.recipient_type === 'group';
      const failed = s.status === 'failed';
      const emptyAllowed = p === 'documented' && s.recipient_id === '';
      if (!group && s.recipient_id !== undefined && !emptyAllowed && !WA_ID.test(s.recipient_id))
        issue(ctx, 'recipient_id must be the phone digits', ['recipient_id']);
      if (!hasPhone(s.recipient_id) && s.recipient_user_id === undefined)
        issue(ctx, 'names no recipient: neither recipient_id nor recipient_user_id');
      const participant = s.recipient_participant_id ?? s.recipient_participant_user_id;
      if (group !== (participant !== undefined)) issue(ctx, 'group statuses, and only they, name a participant');
      if (failed !== (s.errors !== undefined)) issue(ctx, 'errors come with a failed status and only with it', ['errors']);
      if (failed && (s.pricing !== undefined || s.conversation !== undefined))
        issue(ctx, 'a failed message is neither priced nor in a conversation');
      if (s.conversation?.expiration_timestamp !== undefined && s.status !== 'sent')
        issue(ctx, 'expiration_timestamp is only on sent', ['conversation']);
      if (p === 'current') {
        if (!failed && !group && s.recipient_user_id === undefined)
          issue(ctx, 'every status but a failed one carries recipient_user_id', ['recipient_user_id']);
        const pricingType = s.pricing !== undefined && 'type' in s.pricing ? s.pricing.type : undefined;
        if (s.conversation !== undefined && pricingType !== 'free_entry_point')
          issue(ctx, 'v24+ sends conversation only in a free-entry-point window', ['conversation']);
      }
    });
}

// ---- inbound messages ---------------------------------------------------------------------

const context = z.union([
  /** A reply to, or a button of, one of our messages. */
  z.strictObject({
    from: digits,
    id: wamid,
    referred_product: z.strictObject({ catalog_id: graphId, product_retailer_id: text }).optional(),
  }),
  z.strictObject({ forwarded: z.literal(true) }),
  z.strictObject({ frequently_forwarded: z.literal(true) }),
]);

/** A click-to-WhatsApp ad or boosted post the user came from. */
const referral = z.strictObject({
  source_url: text,
  source_id: text,
  source_type: z.enum(['ad', 'post']),
  headline: z.string().optional(),
  body: z.string().optional(),
  media_type: z.enum(['image', 'video']).optional(),
  image_url: text.optional(),
  video_url: text.optional(),
  thumbnail_url: text.optional(),
  ctwa_clid: text.optional(),
  welcome_message: z.strictObject({ text }).optional(),
});

const mediaFields = {
  id: graphId,
  mime_type: text,
  sha256: text,
  url: z
    .string()
    .regex(/^https:\/\//)
    .optional(),
};
const contactCard = z.strictObject({
  name: z.strictObject({
    formatted_name: text,
    first_name: text.optional(),
    last_name: text.optional(),
    middle_name: text.optional(),
    suffix: text.optional(),
    prefix: text.optional(),
  }),
  phones: z
    .array(z.strictObject({ phone: text, wa_id: waId.optional(), type: z.enum(['CELL', 'MAIN', 'IPHONE', 'HOME', 'WORK']).optional() }))
    .optional(),
  emails: z.array(z.strictObject({ email: text, type: z.enum(['HOME', 'WORK']).optional() })).optional(),
  addresses: z
    .array(
      z.strictObject({
        street: text.optional(),
        city: text.optional(),
        state: text.optional(),
        zip: text.optional(),
        country: text.optional(),
        country_code: text.optional(),
        type: z.enum(['HOME', 'WORK']).optional(),
      }),
    )
    .optional(),
  org: z.strictObject({ company: text.optional(), department: text.optional(), title: text.optional() }).optional(),
  urls: z.array(z.strictObject({ url: text, type: z.enum(['HOME', 'WORK']).optional() })).optional(),
  birthday: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/)
    .optional(),
});
const reply = z.strictObject({ id: text, title: text, description: text.optional() });

/**
 * The type-specific body (`text`, `image`, …) is optional here and required one level up unless the
 * change carries `errors`: the real fixture of an interactive message Meta could not read has none.
 */
const BODIES = {
  text: z.strictObject({ body: text }),
  image: z.strictObject({ ...mediaFields, caption: text.optional() }),
  video: z.strictObject({ ...mediaFields, caption: text.optional() }),
  document: z.strictObject({ ...mediaFields, caption: text.optional(), filename: text.optional() }),
  audio: z.strictObject({ ...mediaFields, voice: z.boolean() }),
  sticker: z.strictObject({ ...mediaFields, animated: z.boolean() }),
  /** An empty or missing emoji takes a reaction back. */
  reaction: z.strictObject({ message_id: wamid, emoji: z.string().optional() }),
  location: z.strictObject({
    latitude: z.number().min(-90).max(90),
    longitude: z.number().min(-180).max(180),
    name: text.optional(),
    address: text.optional(),
    url: text.optional(),
  }),
  contacts: z.array(contactCard).min(1),
  order: z.strictObject({
    catalog_id: graphId,
    text: z.string().optional(),
    product_items: z
      .array(
        z.strictObject({
          product_retailer_id: text,
          quantity: z.number().int().positive(),
          item_price: z.number().nonnegative(),
          currency: z.string().regex(/^[A-Z]{3}$/),
        }),
      )
      .min(1),
  }),
  /** A template quick-reply tap. */
  button: z.strictObject({ payload: text, text }),
  interactive: z.discriminatedUnion('type', [
    z.strictObject({ type: z.literal('button_reply'), button_reply: reply }),
    z.strictObject({ type: z.literal('list_reply'), list_reply: reply }),
  ]),
} as const;

function inboundSchema(p: Profile) {
  const base = {
    /** Omitted (once `""`) for a user who hides their number behind a username. */
    from: phoneField(p),
    from_user_id: p === 'current' ? bsuid : bsuid.optional(),
    from_parent_user_id: parentBsuid.optional(),
    id: wamid,
    timestamp: unixString,
    context: context.optional(),
    referral: referral.optional(),
  };
  const b = BODIES;
  return z
    .discriminatedUnion('type', [
      z.strictObject({ ...base, type: z.literal('text'), text: b.text.optional() }),
      z.strictObject({ ...base, type: z.literal('image'), image: b.image.optional() }),
      z.strictObject({ ...base, type: z.literal('video'), video: b.video.optional() }),
      z.strictObject({ ...base, type: z.literal('document'), document: b.document.optional() }),
      z.strictObject({ ...base, type: z.literal('audio'), audio: b.audio.optional() }),
      z.strictObject({ ...base, type: z.literal('sticker'), sticker: b.sticker.optional() }),
      z.strictObject({ ...base, type: z.literal('reaction'), reaction: b.reaction.optional() }),
      z.strictObject({ ...base, type: z.literal('location'), location: b.location.optional() }),
      z.strictObject({ ...base, type: z.literal('contacts'), contacts: b.contacts.optional() }),
      z.strictObject({ ...base, type: z.literal('order'), order: b.order.optional() }),
      z.strictObject({ ...base, type: z.literal('button'), button: b.button.optional() }),
      z.strictObject({ ...base, type: z.literal('interactive'), interactive: b.interactive.optional() }),
      z.strictObject({
        ...base,
        type: z.literal('unsupported'),
        errors: z.array(errorObject(false)).min(1),
        unsupported: z.strictObject({ type: text }).optional(),
      }),
      z.strictObject({
        ...base,
        type: z.literal('system'),
        system: z.strictObject({
          body: text,
          type: z.enum(['user_changed_number', 'customer_changed_number', 'customer_identity_changed', 'user_changed_user_id']),
          wa_id: waId.optional(),
          user_id: bsuid.optional(),
          customer: text.optional(),
        }),
        identity: z.strictObject({ acknowledged: z.boolean(), created_timestamp: unixString, hash: text }).optional(),
      }),
    ])
    .refine((m) => hasPhone(m.from) || m.from_user_id !== undefined, 'a message needs from or from_user_id');
}

// ---- the `messages` field ------------------------------------------------------------------

function messagesValue(p: Profile) {
  return z
    .strictObject({
      messaging_product: z.literal('whatsapp'),
      metadata,
      contacts: z.array(contactSchema(p)).min(1).optional(),
      messages: z.array(inboundSchema(p)).min(1).optional(),
      statuses: z.array(statusSchema(p)).min(1).optional(),
      /** System-level errors, e.g. a message Meta could not process. */
      errors: z.array(errorObject(false)).min(1).optional(),
    })
    .superRefine((v, ctx) => {
      if (v.messages !== undefined && v.statuses !== undefined) issue(ctx, 'messages and statuses never share a change');
      if (v.messages === undefined && v.statuses === undefined && v.errors === undefined)
        issue(ctx, 'a messages change carries messages, statuses or errors');
      const contacts = v.contacts ?? [];
      for (const [i, m] of (v.messages ?? []).entries()) {
        const path = ['messages', i];
        if (
          m.type !== 'unsupported' &&
          m.type !== 'system' &&
          (m as Record<string, unknown>)[m.type] === undefined &&
          v.errors === undefined
        ) {
          issue(ctx, `a ${m.type} message without its ${m.type} object`, path);
        }
        // A number change comes without contacts (real fixture); every other message names its sender.
        if (m.type === 'system' && contacts.length === 0) continue;
        const sender = contacts.find(
          (c) => (hasPhone(m.from) && c.wa_id === m.from) || (m.from_user_id !== undefined && c.user_id === m.from_user_id),
        );
        if (sender === undefined) issue(ctx, 'no contact describes the sender', path);
        else if (sender.profile?.name === undefined) issue(ctx, "the sender's contact has no profile.name", path);
      }
      if (p === 'current') {
        for (const [i, s] of (v.statuses ?? []).entries()) {
          // Meta's business-scoped id notes: a failed status comes without contacts, every other names its recipient there.
          if (s.status === 'failed' || s.recipient_type === 'group') continue;
          if (!contacts.some((c) => sameRecipient(c, s.recipient_id, s.recipient_user_id)))
            issue(ctx, 'no contact names the recipient of this status', ['statuses', i]);
        }
      }
    });
}

function sameRecipient(c: Contact, recipientId: string | undefined, userId: string | undefined): boolean {
  return c.user_id === userId && (!hasPhone(recipientId) || c.wa_id === recipientId);
}

// ---- user_preferences ----------------------------------------------------------------------

const PREFERENCE_DETAIL = {
  stop: 'User requested to stop marketing messages',
  resume: 'User requested to resume marketing messages',
} as const;

function preferencesValue(p: Profile) {
  const preference = z
    .strictObject({
      wa_id: phoneField(p),
      user_id: p === 'current' ? bsuid : bsuid.optional(),
      parent_user_id: parentBsuid.optional(),
      detail: text,
      category: z.literal('marketing_messages'),
      value: z.enum(['stop', 'resume', 'signup']),
      timestamp: unixInt,
      signup_id: digits.optional(),
    })
    .superRefine((u, ctx) => {
      if (!hasPhone(u.wa_id) && u.user_id === undefined) issue(ctx, 'a preference needs wa_id or user_id');
      if ((u.value === 'signup') !== (u.signup_id !== undefined))
        issue(ctx, 'signup_id comes with a signup and only with it', ['signup_id']);
      if (u.value !== 'signup' && u.detail !== PREFERENCE_DETAIL[u.value])
        issue(ctx, `detail of a ${u.value} is "${PREFERENCE_DETAIL[u.value]}"`, ['detail']);
    });
  return z
    .strictObject({
      messaging_product: z.literal('whatsapp'),
      metadata,
      contacts: z.array(contactSchema(p)).min(1),
      user_preferences: z.array(preference).min(1),
    })
    .superRefine((v, ctx) => {
      // The real fixtures pair a contact with another number's preference, so only `current` checks they match.
      if (p !== 'current') return;
      for (const [i, u] of v.user_preferences.entries()) {
        if (!v.contacts.some((c) => sameRecipient(c, u.wa_id, u.user_id)))
          issue(ctx, 'no contact names this user', ['user_preferences', i]);
      }
    });
}

// ---- user_id_update ------------------------------------------------------------------------

/** A user changed number, so Meta regenerated their business-scoped id (and the parent id, if enrolled). */
function userIdUpdateValue(p: Profile) {
  const pair = <S extends z.ZodType>(id: S) => z.strictObject({ previous: id, current: id });
  return z.strictObject({
    messaging_product: z.literal('whatsapp'),
    metadata,
    contacts: z.array(contactSchema(p)).min(1).optional(),
    user_id_update: z
      .array(
        z.strictObject({
          wa_id: waId.optional(),
          detail: text,
          user_id: pair(bsuid),
          parent_user_id: pair(parentBsuid).optional(),
          /** Not documented as a string or a number; both are accepted. */
          timestamp: z.union([unixString, unixInt]),
        }),
      )
      .min(1),
  });
}

// ---- template, number and account fields ---------------------------------------------------

const templateRef = { message_template_id: templateId, message_template_name: templateName, message_template_language: locale };

const PAUSE_TITLES: Record<string, readonly string[]> = {
  PAUSED: ['FIRST_PAUSE', 'SECOND_PAUSE', 'RATE_LIMITING_PAUSE'],
  REINSTATED: ['UNPAUSE'],
  DISABLED: ['DISABLED'],
};

const templateStatusValue = z
  .strictObject({
    event: z.enum([
      'APPROVED',
      'REJECTED',
      'PENDING',
      'PAUSED',
      'DISABLED',
      'FLAGGED',
      'REINSTATED',
      'IN_APPEAL',
      'ARCHIVED',
      'UNARCHIVED',
      'DELETED',
      'PENDING_DELETION',
      'LIMIT_EXCEEDED',
      'LOCKED',
    ]),
    ...templateRef,
    /** `null` when the template is scheduled for deletion. */
    reason: z
      .enum([
        'NONE',
        'INVALID_FORMAT',
        'INCORRECT_CATEGORY',
        'TAG_CONTENT_MISMATCH',
        'PROMOTIONAL',
        'ABUSIVE_CONTENT',
        'SCAM',
        'CATEGORY_NOT_AVAILABLE',
      ])
      .nullable(),
    message_template_category: z.enum(TEMPLATE_CATEGORY),
    other_info: z
      .strictObject({ title: z.enum(['FIRST_PAUSE', 'SECOND_PAUSE', 'RATE_LIMITING_PAUSE', 'UNPAUSE', 'DISABLED']), description: text })
      .optional(),
    rejection_info: z.strictObject({ reason: text, recommendation: text }).optional(),
    disable_info: z.strictObject({ disable_date: unixInt }).optional(),
  })
  .superRefine((v, ctx) => {
    if (v.rejection_info !== undefined && v.event !== 'REJECTED') issue(ctx, 'rejection_info only on REJECTED', ['rejection_info']);
    if (v.disable_info !== undefined && v.event !== 'DISABLED') issue(ctx, 'disable_info only on DISABLED', ['disable_info']);
    if (v.other_info !== undefined && !(PAUSE_TITLES[v.event] ?? []).includes(v.other_info.title))
      issue(ctx, `other_info.title ${v.other_info.title} does not go with ${v.event}`, ['other_info']);
  });

const templateQualityValue = z.strictObject({
  previous_quality_score: z.enum(QUALITY_SCORE),
  new_quality_score: z.enum(QUALITY_SCORE),
  ...templateRef,
});

const templateCategoryValue = z.union([
  /** A change that happened. Meta documents `previous_category`; the real fixture has only `new_category`. */
  z.strictObject({ ...templateRef, previous_category: z.enum(TEMPLATE_CATEGORY).optional(), new_category: z.enum(TEMPLATE_CATEGORY) }),
  /** The 24-hour notice: `new_category` is the current one, `correct_category` the one to come. */
  z.strictObject({
    ...templateRef,
    new_category: z.enum(TEMPLATE_CATEGORY),
    correct_category: z.enum(TEMPLATE_CATEGORY),
    category_update_timestamp: unixInt,
  }),
]);

function phoneQualityValue(p: Profile) {
  const tiers = ['TIER_50', 'TIER_250', 'TIER_2K', 'TIER_10K', 'TIER_100K', 'TIER_NOT_SET', 'TIER_UNLIMITED'] as const;
  const base = {
    display_phone_number: digits,
    /** ONBOARDING and THROUGHPUT_UPGRADE now; FLAGGED, UNFLAGGED, UPGRADE, DOWNGRADE in Meta's earlier reference. */
    event: z.enum(['ONBOARDING', 'THROUGHPUT_UPGRADE', 'FLAGGED', 'UNFLAGGED', 'UPGRADE', 'DOWNGRADE']),
  };
  if (p === 'current') return z.strictObject({ ...base, max_daily_conversations_per_business: z.enum(tiers) });
  const tier = z.enum([...tiers, 'TIER_1K']);
  return z.strictObject({
    ...base,
    current_limit: tier.optional(),
    old_limit: tier.optional(),
    max_daily_conversations_per_business: tier.optional(),
  });
}

const wabaInfo = z.strictObject({
  waba_id: graphId,
  owner_business_id: graphId,
  ad_account_linked: graphId.optional(),
  partner_app_id: graphId.optional(),
  solution_id: graphId.optional(),
  solution_partner_business_ids: z.array(graphId).optional(),
});
const event = <E extends string>(name: E, fields: z.core.$ZodLooseShape = {}) => z.strictObject({ event: z.literal(name), ...fields });

const accountUpdateValue = z.discriminatedUnion('event', [
  event('ACCOUNT_DELETED'),
  event('ACCOUNT_OFFBOARDED'),
  event('ACCOUNT_RECONNECTED'),
  event('ACCOUNT_RESTRICTION', {
    restriction_info: z
      .array(
        z.strictObject({
          restriction_type: z.enum([
            'RESTRICTED_ADD_PHONE_NUMBER_ACTION',
            'RESTRICTED_BIZ_INITIATED_MESSAGING',
            'RESTRICTED_CUSTOMER_INITIATED_MESSAGING',
          ]),
          expiration: unixInt,
          remediation: text.optional(),
        }),
      )
      .min(1),
  }),
  event('ACCOUNT_VIOLATION', { violation_info: z.strictObject({ violation_type: text }) }),
  event('DISABLED_UPDATE', {
    ban_info: z.strictObject({ waba_ban_state: z.enum(['SCHEDULE_FOR_DISABLE', 'DISABLE', 'REINSTATE']), waba_ban_date: text }),
  }),
  event('AD_ACCOUNT_LINKED', { waba_info: wabaInfo }),
  event('MM_LITE_TERMS_SIGNED', { waba_info: wabaInfo }),
  event('PARTNER_ADDED', { waba_info: wabaInfo }),
  event('PARTNER_APP_INSTALLED', { waba_info: wabaInfo }),
  event('PARTNER_APP_UNINSTALLED', { waba_info: wabaInfo }),
  event('PARTNER_REMOVED', {
    waba_info: wabaInfo,
    disconnection_info: z.strictObject({ reason: text, initiated_by: z.enum(['SYSTEM', 'USER', 'PARTNER']) }).optional(),
  }),
  event('AUTH_INTL_PRICE_ELIGIBILITY_UPDATE', {
    auth_international_rate_eligibility: z.strictObject({
      start_time: unixInt,
      exception_countries: z.array(z.strictObject({ country_code: z.string().regex(/^[A-Z]{2}$/), start_time: unixInt })).optional(),
    }),
  }),
  event('PARTNER_CLIENT_CERTIFICATION_STATUS_UPDATE', {
    partner_client_certification_info: z.strictObject({
      client_business_id: graphId,
      status: z.enum(['PENDING', 'APPROVED', 'FAILED', 'REVOKED', 'DISCARDED']),
      rejection_reasons: z.array(text),
    }),
  }),
  event('BUSINESS_PRIMARY_LOCATION_COUNTRY_UPDATE', { country: z.string().regex(/^[A-Z]{2}$/) }),
  event('VOLUME_BASED_PRICING_TIER_UPDATE', {
    volume_tier_info: z.strictObject({
      tier_update_time: unixInt,
      pricing_category: z.enum(TEMPLATE_CATEGORY),
      tier: z.string().regex(/^\d+:(\d+)?$/),
      effective_month: z.string().regex(/^\d{4}-\d{2}$/),
      region: text,
    }),
  }),
]);

// ---- the envelope --------------------------------------------------------------------------

/** The whole body of one POST. */
export function metaWebhookSchema(p: Profile) {
  const change = z.discriminatedUnion('field', [
    z.strictObject({ field: z.literal('messages'), value: messagesValue(p) }),
    z.strictObject({ field: z.literal('user_preferences'), value: preferencesValue(p) }),
    z.strictObject({ field: z.literal('user_id_update'), value: userIdUpdateValue(p) }),
    z.strictObject({ field: z.literal('message_template_status_update'), value: templateStatusValue }),
    z.strictObject({ field: z.literal('message_template_quality_update'), value: templateQualityValue }),
    z.strictObject({ field: z.literal('template_category_update'), value: templateCategoryValue }),
    z.strictObject({ field: z.literal('phone_number_quality_update'), value: phoneQualityValue(p) }),
    z.strictObject({ field: z.literal('account_update'), value: accountUpdateValue }),
  ]);
  return z.strictObject({
    object: z.literal('whatsapp_business_account'),
    entry: z.array(z.strictObject({ id: graphId, time: unixInt.optional(), changes: z.array(change).min(1) })).min(1),
  });
}

const SCHEMAS = { documented: metaWebhookSchema('documented'), current: metaWebhookSchema('current') };

/** A readable list of what is wrong with `body`, empty when it passes. */
export function strictProblems(body: unknown, p: Profile): string[] {
  const result = SCHEMAS[p].safeParse(body);
  return result.success ? [] : result.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`);
}
