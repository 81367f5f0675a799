import { DAY, type Millis } from '../../core/time.js';
import type { SimContext } from './context.js';
import type { HandlerAnswer } from './graph-error.js';
import type { TemplateCategory } from './config.js';
import type { TemplateState } from './template-quality.js';

/**
 * `POST /{TEMPLATE_ID}`, Meta's template edit (reference §1.2), for the time-to-live: the body names
 * `message_send_ttl_seconds` (and may name `category` or `components`, which the simulator does not
 * edit this way). Meta's rules: only APPROVED, REJECTED or PAUSED templates are edited, an approved
 * one at most once per 24 h and 10 times per 30 days, an approved one's category never; the TTL in
 * 1-second steps within its category's range (§7.2), -1 asking 30 days for authentication and
 * utility. Success is Graph's `{ "success": true }`. The error codes and subcodes for a refused edit
 * are not documented in the reference: the refusals here are Graph's invalid parameter (100) with the
 * reason in `error_user_msg`, as Graph words management errors.
 */

const RANGES: Record<TemplateCategory, { min: number; max: number; thirtyDays: boolean }> = {
  AUTHENTICATION: { min: 30, max: 900, thirtyDays: true },
  UTILITY: { min: 30, max: 43_200, thirtyDays: true },
  MARKETING: { min: 43_200, max: 2_592_000, thirtyDays: false },
};

const EDITABLE_FIELDS = new Set(['message_send_ttl_seconds', 'category', 'components']);

function refused(ctx: SimContext, title: string, message: string): HandlerAnswer {
  ctx.truth.syncError(100);
  return {
    status: 400,
    body: {
      error: {
        message: 'Invalid parameter',
        type: 'OAuthException',
        code: 100,
        is_transient: false,
        error_user_title: title,
        error_user_msg: message,
        fbtrace_id: ctx.ids.fbtraceId(),
      },
    },
  };
}

export function editTemplateOverApi(ctx: SimContext, t: TemplateState, raw: unknown): HandlerAnswer {
  const now = ctx.scheduler.now();
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    return refused(ctx, 'Invalid request', 'The body must be a JSON object.');
  const body = raw as Record<string, unknown>;
  const unknown = Object.keys(body).find((k) => !EDITABLE_FIELDS.has(k));
  if (unknown !== undefined) return refused(ctx, 'Invalid parameter', `Param ${unknown} is not a field a template edit takes.`);
  if (!('message_send_ttl_seconds' in body))
    return refused(ctx, 'Invalid parameter', 'The simulator edits message_send_ttl_seconds only; name it.');
  const category = t.config.category;
  if (t.status === 'DISABLED')
    return refused(ctx, 'Template cannot be edited', 'Only approved, rejected or paused templates can be edited; this one is DISABLED.');
  if (body['category'] !== undefined && body['category'] !== category && t.status === 'APPROVED')
    return refused(ctx, 'Category cannot be changed', "An approved template's category cannot be edited.");
  const ttl = body['message_send_ttl_seconds'];
  const r = RANGES[category];
  const inRange = typeof ttl === 'number' && Number.isInteger(ttl) && ((ttl >= r.min && ttl <= r.max) || (ttl === -1 && r.thirtyDays));
  if (!inRange)
    return refused(
      ctx,
      'Invalid time-to-live',
      `message_send_ttl_seconds must be an integer from ${r.min} to ${r.max}${r.thirtyDays ? ' or -1' : ''} for ${category} templates, got ${JSON.stringify(ttl)}.`,
    );
  if (t.status === 'APPROVED') {
    const recent = t.approvedEdits.filter((at) => at > now - 30 * DAY);
    if (recent.some((at) => at > now - DAY) || recent.length >= 10)
      return refused(ctx, 'Edit limit reached', 'An approved template can be edited once in 24 hours and 10 times in 30 days.');
    t.approvedEdits = [...recent, now];
  }
  t.config.messageSendTtlSeconds = ttl;
  return { status: 200, body: { success: true } };
}

/** When Meta drops a message it could not deliver: its template's time-to-live on the path it took (reference §7.2). */
export function ttlMsOf(category: string, endpoint: 'messages' | 'marketing_messages', ttlSeconds: number | undefined): Millis {
  const thirtyDays = 30 * DAY;
  const custom = ttlSeconds === undefined ? null : ttlSeconds === -1 ? thirtyDays : ttlSeconds * 1000;
  switch (category) {
    case 'marketing':
      // On /messages Meta keeps a marketing template for 30 days whatever the template says.
      return endpoint === 'marketing_messages' && custom !== null ? custom : thirtyDays;
    case 'utility':
      return custom ?? thirtyDays;
    case 'authentication':
      return custom ?? 10 * 60 * 1000;
    default:
      return thirtyDays;
  }
}
