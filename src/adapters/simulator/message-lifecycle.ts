import type { Millis } from '../../core/time.js';
import type { SimNumber } from './business-numbers.js';
import { marketingVerdict } from './cap-model.js';
import type { SimContext } from './context.js';
import type { MessageTruth } from './ground-truth.js';
import { afterWakingDelay, isNightHour, localHour } from './local-time.js';
import { statusError, unixSeconds, type Pricing, type StatusObject } from './payloads.js';
import { shownPhone, type SimUser } from './population.js';
import type { TemplateState } from './template-quality.js';
import { ttlMsOf } from './template-edit.js';
import { maybeReply, reactToMarketing } from './user-actions.js';

/**
 * What happens to a message after the API accepted it: an asynchronous failure (131053, 131026,
 * 131047, 131049, 130472, 131050), or sent → delivered → read with realistic delays, the user's
 * reaction, and the feedback that moves the sending number's quality. Time comes from the
 * scheduler, randomness from the user. Webhooks name `from`, the number that sent it.
 * `mediaProblem` says why Meta could not fetch or use the header's media, when it could not.
 */
export function startLifecycle(
  ctx: SimContext,
  from: SimNumber,
  msg: MessageTruth,
  user: SimUser | undefined,
  template: TemplateState | null,
  addressedBy: AddressedBy,
  mediaProblem: string | null = null,
): void {
  const now = ctx.scheduler.now();
  const emitStatus = (status: StatusObject['status'], at: Millis, extra: StatusExtra): void => {
    const object: StatusObject = {
      id: msg.wamid,
      status,
      timestamp: String(unixSeconds(at)),
      ...recipientOf(ctx, msg, user, addressedBy, status === 'failed'),
      ...(msg.messageId === null ? {} : { biz_opaque_callback_data: msg.messageId }),
      ...extra,
    };
    ctx.delivery.emit({ kind: 'status', status: object }, at, from);
  };
  const r = ctx.config.reactions;
  const sentDelay = user === undefined ? r.sentDelayMs.min : user.reactRng.logUniform(r.sentDelayMs.min, r.sentDelayMs.max);
  const sentAt = now + Math.round(sentDelay);

  const failWith = (code: number, details?: string): void => {
    ctx.truth.failed(msg, code);
    ctx.scheduler.at(sentAt, () => emitStatus('failed', sentAt, { errors: [statusError(code, details)] }));
  };

  // Meta fetches a header's media before it tries to deliver anything.
  if (mediaProblem !== null) return failWith(131053, mediaProblem);
  if (user === undefined || !user.onWhatsApp) return failWith(131026);
  const windowOpen = user.state.windowOpenUntil > now;
  if (msg.category === 'service' && !windowOpen) return failWith(131047);
  if (msg.category === 'marketing') {
    const verdict = marketingVerdict(user, now, ctx.config);
    if (verdict.kind === 'fail') {
      if (verdict.code === 131049 && verdict.why === 'retry_inside_penalty') {
        // Resending into a cap looks like spam: the user's patience and the number's quality suffer.
        user.state.annoyance += r.capRetryAnnoyance;
        from.signal(now, ctx.config.quality.capRetrySignal);
      }
      return failWith(verdict.code);
    }
  }

  const pricing = pricingFor(msg, windowOpen);
  ctx.scheduler.at(sentAt, () => {
    msg.status = 'sent';
    emitStatus('sent', sentAt, { pricing });
  });
  // A user who blocked us never receives anything; Meta only ever reports `sent`.
  if (user.state.blocked) return;

  const rr = user.reactRng;
  let deliveredAt = sentAt + Math.round(rr.logUniform(r.deliveredDelayMs.min, r.deliveredDelayMs.max));
  // A phone that is off takes it when it is back (drawn only when phones go off, so other runs keep their numbers).
  if (r.offline.rate > 0 && rr.chance(r.offline.rate)) {
    deliveredAt = Math.max(deliveredAt, sentAt + Math.round(rr.logUniform(r.offline.forMs.min, r.offline.forMs.max)));
  }
  // Meta retries an undeliverable message for its time-to-live, then drops it: it never arrives late.
  if (deliveredAt - now > ttlMsOf(msg.category, msg.endpoint, template?.config.messageSendTtlSeconds)) {
    ctx.scheduler.at(now + ttlMsOf(msg.category, msg.endpoint, template?.config.messageSendTtlSeconds), () => {
      if (msg.status === 'sent' || msg.status === 'accepted') msg.status = 'expired';
    });
    return;
  }
  const deliveredHour = localHour(user.timeZone, deliveredAt);
  const atNight = isNightHour(deliveredHour, r.night);
  const readChance = readProbability(user, msg, template);
  const reads = rr.chance(readChance);
  // The delay is the user's waking time: at night it stretches, often to the morning.
  const readDelay = rr.logUniform(r.readDelayMs.min, r.readDelayMs.max);
  const readAt = afterWakingDelay(user.timeZone, deliveredAt, Math.round(readDelay), r.night, r.night.readDelayFactor);
  // In the chat when it arrives: delivered and read together, and Meta sends only `read`.
  const skipDelivered = reads && rr.chance(r.skipDeliveredRate);

  const at = skipDelivered ? deliveredAt : readAt;
  // Real time gives timers due in the same millisecond no order: a read may come due before the
  // delivery it follows, and then waits for it rather than being lost.
  let arrival: 'pending' | 'arrived' | 'blocked' = 'pending';
  let readWaiting = false;
  const read = (): void => {
    if (arrival === 'pending') {
      readWaiting = true;
      return;
    }
    if (arrival === 'blocked') return; // blocked before it arrived
    msg.status = 'read';
    msg.readAt = at;
    emitStatus('read', at, skipDelivered ? { pricing } : {});
    if (msg.category === 'marketing') reactToMarketing(ctx, from, user, template, msg.wamid, at, atNight);
    else maybeReply(ctx, from, user, at, msg.wamid, 1);
  };
  ctx.scheduler.at(deliveredAt, () => {
    if (user.state.blocked) {
      arrival = 'blocked';
      return;
    }
    arrival = 'arrived';
    ctx.truth.delivered(msg, deliveredAt, deliveredHour);
    if (msg.category === 'marketing') user.state.ourMarketing.push(deliveredAt);
    from.delivered(template, deliveredAt);
    if (!skipDelivered) emitStatus('delivered', deliveredAt, { pricing });
    if (readWaiting) read();
  });
  if (reads) ctx.scheduler.at(at, read);
}

function readProbability(user: SimUser, msg: MessageTruth, template: TemplateState | null): number {
  if (msg.category === 'marketing') return user.readPropensity * (0.6 + 0.8 * (template?.config.relevance ?? 0.5));
  // Utility, authentication and replies in a conversation get read far more often.
  return Math.min(1, user.readPropensity + 0.4);
}

function pricingFor(msg: MessageTruth, windowOpen: boolean): Pricing {
  switch (msg.category) {
    case 'marketing':
      return {
        billable: true,
        pricing_model: 'PMP',
        type: 'regular',
        category: msg.endpoint === 'marketing_messages' ? 'marketing_lite' : 'marketing',
      };
    case 'utility':
      return windowOpen
        ? { billable: false, pricing_model: 'PMP', type: 'free_customer_service', category: 'utility' }
        : { billable: true, pricing_model: 'PMP', type: 'regular', category: 'utility' };
    case 'authentication':
      return { billable: true, pricing_model: 'PMP', type: 'regular', category: 'authentication' };
    case 'service':
      return { billable: false, pricing_model: 'PMP', type: 'free_customer_service', category: 'service' };
  }
}

type StatusExtra = { pricing?: Pricing; errors?: StatusObject['errors'] };

/** How the send named its recipient: `to` (a phone number) or `recipient` (a business-scoped id). */
export type AddressedBy = 'phone' | 'user_id';

/**
 * The recipient fields of a status, by Meta's rules for business-scoped ids (reference: BSUID §6.4):
 * the phone unless a username withholds it, the business-scoped id on every status except a failed
 * one sent to a phone number. An unknown recipient is named as sent.
 */
function recipientOf(
  ctx: SimContext,
  msg: MessageTruth,
  user: SimUser | undefined,
  addressedBy: AddressedBy,
  failed: boolean,
): Pick<StatusObject, 'recipient_id' | 'recipient_user_id'> {
  if (user === undefined) return addressedBy === 'phone' ? { recipient_id: msg.to } : { recipient_user_id: msg.to };
  const phone = shownPhone(user, ctx.config.population.withheldPhone);
  const byPhone = phone === undefined ? {} : { recipient_id: phone };
  return failed && addressedBy === 'phone' ? byPhone : { ...byPhone, recipient_user_id: user.userId };
}
