import { z } from 'zod';
import type { SimNumber } from './business-numbers.js';
import type { SimContext } from './context.js';
import { graphError, type HandlerAnswer } from './graph-error.js';
import type { MessageTruth, Rendered, SimCategory } from './ground-truth.js';
import { headerMediaProblem } from './media-store.js';
import { startLifecycle } from './message-lifecycle.js';
import { sendSuccessBody } from './payloads.js';
import { renderText } from './template-render.js';
import { checkTemplateSend } from './template-send-check.js';
import { shapeOf } from './template-shape.js';

const sendBody = z.object({
  messaging_product: z.literal('whatsapp'),
  recipient_type: z.literal('individual').optional(),
  to: z.string().min(1).optional(),
  recipient: z.string().min(1).optional(),
  type: z.string().default('text'),
  template: z
    .object({
      name: z.string().min(1),
      language: z.object({ code: z.string().min(1) }),
      components: z.array(z.unknown()).optional(),
    })
    .optional(),
  text: z.object({ body: z.string().min(1).max(4096), preview_url: z.boolean().optional() }).optional(),
  biz_opaque_callback_data: z.string().max(512).optional(),
});

/**
 * One `POST /{phone-number-id}/messages` (or `/marketing_messages`): the synchronous checks Meta
 * makes before it takes a message (throughput 130429, template state 132001/132015/132016, the
 * template's parameters 132000/132012/132018/131008/131009, pair rate 131056, request shape
 * 100/131008), then acceptance and the message's lifecycle. Header media Meta cannot fetch fails
 * the accepted message later (131053). Throughput, pair rate and templates are the sending
 * number's own (and its account's); the per-user marketing cap is the recipient's, whoever sends.
 */
export function handleSend(ctx: SimContext, number: SimNumber, endpoint: 'messages' | 'marketing_messages', raw: unknown): HandlerAnswer {
  const now = ctx.scheduler.now();
  ctx.truth.requests++;
  const fail = (code: number, details?: string): HandlerAnswer => graphError(ctx, code, details);

  const parsed = sendBody.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return fail(100, `Invalid parameter at ${issue?.path.join('.') || '(root)'}: ${issue?.message ?? 'invalid'}`);
  }
  const req = parsed.data;
  const digits = req.to?.replace(/[^0-9]/g, '');
  const user = digits !== undefined ? ctx.population.byPhone(digits) : ctx.population.byUserId(req.recipient ?? '');
  const recipientKey = user?.phone ?? digits ?? req.recipient ?? '';
  // Lateness counts from the first try, even one refused below.
  const firstRequestAt = ctx.truth.requested(recipientKey, req.type === 'template' ? (req.template?.name ?? null) : null, now);
  // Every request counts against the number's throughput, accepted or not.
  if (!number.limits.takeThroughput(now)) return fail(130429);

  if (req.to === undefined && req.recipient === undefined) return fail(100, 'Either to or recipient is required.');
  if (req.type !== 'template' && req.type !== 'text') return fail(100, `Message type ${req.type} is not supported by the simulator.`);
  if (endpoint === 'marketing_messages' && req.type !== 'template') return fail(100, 'Message must be a template message.');

  let category: SimCategory = 'service';
  let template = null;
  let rendered: Rendered;
  let mediaProblem: string | null = null;
  if (req.type === 'template') {
    if (req.template === undefined) return fail(131008, 'The parameter template is required.');
    template = number.account.templates.template(req.template.name, req.template.language.code) ?? null;
    if (template === null) return fail(132001, `template name (${req.template.name}) does not exist in ${req.template.language.code}`);
    if (template.status === 'PAUSED') return fail(132015);
    if (template.status === 'DISABLED') return fail(132016);
    category = template.config.category.toLowerCase() as SimCategory;
    if (endpoint === 'marketing_messages' && category !== 'marketing') return fail(134100);
    // Authentication templates need the phone number (`to`); `recipient` alone is refused.
    if (category === 'authentication' && req.to === undefined) return fail(131062);
    const check = checkTemplateSend(shapeOf(template.config), req.template.components);
    if (!check.ok) return fail(check.code, check.details);
    rendered = check.rendered;
    if (check.headerMedia !== null) mediaProblem = headerMediaProblem(ctx.media, check.headerMedia, now);
  } else if (req.text === undefined) {
    return fail(131008, 'The parameter text is required.');
  } else {
    rendered = renderText(req.text.body);
  }

  if (!number.limits.pairAvailable(recipientKey, now)) return fail(131056);
  number.limits.takePair(recipientKey, now);

  const wamid = ctx.ids.wamid();
  const msg: MessageTruth = {
    wamid,
    phoneNumberId: number.who.phoneNumberId,
    wabaId: number.who.wabaId,
    messageId: req.biz_opaque_callback_data ?? null,
    to: recipientKey,
    addressedBy: req.to !== undefined ? 'phone' : 'user_id',
    category,
    template: template?.config.name ?? null,
    endpoint,
    acceptedAt: now,
    firstRequestAt,
    timeZone: user?.timeZone ?? null,
    status: 'accepted',
    errorCode: null,
    deliveredAt: null,
    deliveredLocalHour: null,
    readAt: null,
    rendered,
  };
  ctx.truth.messages.set(wamid, msg);
  // Messaging the number itself lets Meta disclose it in this user's webhooks from now on.
  if (user !== undefined && digits !== undefined) user.state.phoneShared = true;
  startLifecycle(ctx, number, msg, user, template, msg.addressedBy, mediaProblem);

  const input = req.to ?? req.recipient ?? '';
  const contact = req.to !== undefined ? { wa_id: recipientKey } : { user_id: req.recipient ?? '' };
  return { status: 200, body: sendSuccessBody(input, contact, wamid) };
}
