import { HOUR, type Millis } from '../../core/time.js';
import type { SimNumber } from './business-numbers.js';
import { afterWakingDelay } from './local-time.js';
import type { SimContext } from './context.js';
import type { WebhookContact } from './payloads.js';
import { unixSeconds } from './payloads.js';
import { shownPhone, type SimUser } from './population.js';
import type { TemplateState } from './template-quality.js';

const REPLIES = ['Thanks!', 'How much is it?', 'Is this still available?', 'ok', 'Can you send more details?', 'Great, thank you'];

export const STOP_BUTTON = { payload: 'STOP_PROMOTIONS', text: 'Stop promotions' } as const;

/**
 * What a user does on their phone; each action changes their state and posts Meta's webhook to
 * the number it concerns (`to`). The user's state with the business (window, stop, block) is one
 * for every number.
 */

export function contactOf(ctx: SimContext, user: SimUser): WebhookContact {
  const phone = shownPhone(user, ctx.config.population.withheldPhone);
  return {
    profile: user.username === null ? { name: user.name } : { name: user.name, username: user.username },
    ...(phone === undefined ? {} : { wa_id: phone }),
    user_id: user.userId,
  };
}

/** `from` as Meta writes it: absent (or `""`) while the number is withheld. */
function fromOf(ctx: SimContext, user: SimUser): { from?: string } {
  const phone = shownPhone(user, ctx.config.population.withheldPhone);
  return phone === undefined ? {} : { from: phone };
}

function openWindow(ctx: SimContext, user: SimUser, at: Millis): void {
  user.state.windowOpenUntil = Math.max(user.state.windowOpenUntil, at + 24 * HOUR);
}

/** The user writes to number `to`: an inbound text that opens the 24 h customer-service window. */
export function userWrites(ctx: SimContext, to: SimNumber, user: SimUser, at: Millis, body?: string, replyTo?: string): void {
  openWindow(ctx, user, at);
  ctx.truth.reactions.replies++;
  const message = {
    ...fromOf(ctx, user),
    from_user_id: user.userId,
    id: ctx.ids.inboundWamid(),
    timestamp: String(unixSeconds(at)),
    type: 'text' as const,
    text: { body: body ?? user.reactRng.pick(REPLIES) },
    ...(replyTo === undefined ? {} : { context: { from: to.config.displayPhoneNumber, id: replyTo } }),
  };
  ctx.delivery.emit({ kind: 'inbound', contact: contactOf(ctx, user), message }, at, to);
}

/** The user taps the template's "Stop promotions" quick reply. Meta does not act on it; we must. */
export function userTapsStop(ctx: SimContext, to: SimNumber, user: SimUser, at: Millis, wamid: string): void {
  openWindow(ctx, user, at); // a button tap is an inbound message, so it opens the window too
  ctx.truth.reactions.stopTaps++;
  ctx.delivery.emit(
    {
      kind: 'inbound',
      contact: contactOf(ctx, user),
      message: {
        context: { from: to.config.displayPhoneNumber, id: wamid },
        ...fromOf(ctx, user),
        from_user_id: user.userId,
        id: ctx.ids.inboundWamid(),
        timestamp: String(unixSeconds(at)),
        type: 'button',
        button: { ...STOP_BUTTON },
      },
    },
    at,
    to,
  );
}

/** "Offers and announcements" → Stop or Resume: changes delivery (131050) and posts `user_preferences`. */
export function setMarketingPreference(ctx: SimContext, to: SimNumber, user: SimUser, at: Millis, value: 'stop' | 'resume'): void {
  const stop = value === 'stop';
  if (user.state.stoppedMarketing === stop) return;
  user.state.stoppedMarketing = stop;
  if (stop) ctx.truth.reactions.preferenceStops++;
  else ctx.truth.reactions.resumes++;
  ctx.delivery.emit({ kind: 'preference', contact: contactOf(ctx, user), value, at }, at, to);
}

/** Relevance of a template to this user, 0..1. */
export function relevanceFor(user: SimUser, template: TemplateState | null): number {
  const base = template?.config.relevance ?? 0.5;
  return Math.min(1, Math.max(0, base + (user.interest - 0.5) * 0.4));
}

/**
 * How the user responds once they read one of our marketing messages. Negative reactions grow
 * with irrelevance, with how much marketing we sent them lately, with annoyance from retries, and
 * (blocks and reports) when it arrived at their night.
 */
export function reactToMarketing(
  ctx: SimContext,
  from: SimNumber,
  user: SimUser,
  template: TemplateState | null,
  wamid: string,
  at: Millis,
  deliveredAtNight: boolean,
): void {
  const r = ctx.config.reactions;
  const rng = user.reactRng;
  const recent = user.state.ourMarketing.filter((t) => t > at - r.frequencyWindowMs).length;
  const weight = 2 * (1 - relevanceFor(user, template)) * (1 + r.frequencyFactor * Math.max(0, recent - 1)) * (1 + user.state.annoyance);

  const reportFactor = deliveredAtNight ? r.night.reportFactor : 1;
  const blockFactor = deliveredAtNight ? r.night.blockFactor : 1;
  if (rng.chance(r.reportRate * weight * reportFactor)) {
    user.state.blocked = true;
    ctx.truth.reactions.reports++;
    from.negative(template, at, 2);
    return;
  }
  if (rng.chance(r.blockRate * weight * blockFactor)) {
    user.state.blocked = true;
    ctx.truth.reactions.blocks++;
    from.negative(template, at, 1);
    return;
  }
  if (rng.chance(r.preferenceStopRate * weight)) {
    setMarketingPreference(ctx, from, user, at, 'stop');
    from.negative(template, at, 0.5);
    if (rng.chance(r.resumeRate)) {
      const later = at + Math.round(rng.exponential(r.resumeMeanDelayMs));
      ctx.scheduler.at(later, () => setMarketingPreference(ctx, from, user, ctx.scheduler.now(), 'resume'));
    }
    return;
  }
  if (rng.chance(r.stopTapRate * weight)) {
    const tapAt = at + Math.round(rng.logUniform(2_000, 120_000));
    ctx.scheduler.at(tapAt, () => userTapsStop(ctx, from, user, ctx.scheduler.now(), wamid));
    return;
  }
  maybeReply(ctx, from, user, at, wamid, 0.5 + relevanceFor(user, template));
}

/** A reply to number `to` some time after reading; `boost` scales the user's reply propensity. */
export function maybeReply(ctx: SimContext, to: SimNumber, user: SimUser, at: Millis, wamid: string, boost: number): void {
  const rng = user.reactRng;
  if (!rng.chance(Math.min(1, user.replyPropensity * boost))) return;
  const { replyDelayMs: d, night } = ctx.config.reactions;
  const replyAt = afterWakingDelay(user.timeZone, at, Math.round(rng.logUniform(d.min, d.max)), night, night.readDelayFactor);
  ctx.scheduler.at(replyAt, () => userWrites(ctx, to, user, ctx.scheduler.now(), undefined, wamid));
}
