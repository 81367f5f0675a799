import { campaignSendsFrom } from './sender-pool.js';
import type { Category } from '../core/category.js';
import { findErrorByCode } from '../core/error-catalogue/index.js';
import type { ErrorEntry } from '../core/error-entry.js';
import type { EmitEvent } from '../core/outbound-event.js';
import type { Millis } from '../core/time.js';
import type { Campaign, CampaignStore, SenderStore, TemplateStore } from '../ports/store.js';
import { senderHealthEvent } from './lifecycle-events.js';
import { changeCampaignStatus } from './record-events.js';

export type EffectsStore = SenderStore & TemplateStore & Pick<CampaignStore, 'getCampaign' | 'listCampaigns' | 'setCampaignStatus'>;

export interface EffectsContext {
  phoneNumberId: string;
  template: { name: string; language: string; category: Category } | null;
  /** The campaign the failed message belongs to; null for a one-off. */
  campaignId: number | null;
  backoffUntil: Millis;
}

/** What a failure changed that an operator must hear of (the caller logs it once committed). */
export interface EffectsApplied {
  /** The sender number this failure stopped (it was not stopped before, or is not in the store), and why. */
  senderStopped: { phoneNumberId: string; reason: string } | null;
  /** Running campaigns this failure paused, with the reason they show. */
  campaignsPaused: { campaignId: number; reason: string }[];
}

const NOTHING: EffectsApplied = Object.freeze({ senderStopped: null, campaignsPaused: [] });

/**
 * What a refused or failed send means beyond the message itself, as the catalogue declares it for
 * the code: a template Meta paused, disabled or that needs review, a sender that must back off or
 * stop until an operator acts, a campaign that must pause. The same for the send's own answer and
 * for a failed status webhook.
 */
export async function applyErrorEffects(
  store: EffectsStore,
  code: number,
  ctx: EffectsContext,
  now: Millis,
  emit: EmitEvent,
): Promise<EffectsApplied> {
  const entry = findErrorByCode(code);
  if (entry === undefined) return NOTHING;
  const senderStopped = await applySenderEffect(store, entry, code, ctx, now, emit);
  await applyTemplateEffect(store, entry, ctx, now);
  const campaignsPaused = await applyCampaignEffect(store, entry, code, ctx, now, emit);
  return { senderStopped, campaignsPaused };
}

async function applySenderEffect(
  store: EffectsStore,
  entry: ErrorEntry,
  code: number,
  ctx: EffectsContext,
  now: Millis,
  emit: EmitEvent,
): Promise<EffectsApplied['senderStopped']> {
  const reason = `${code} ${entry.name}`;
  switch (entry.effects.sender) {
    case 'throttle':
      await store.setSenderState(ctx.phoneNumberId, 'throttled', reason, ctx.backoffUntil, now);
      return null;
    case 'stop': {
      const before = await store.getSender(ctx.phoneNumberId);
      await store.setSenderState(ctx.phoneNumberId, 'stopped', reason, null, now);
      // Reported when it changes: a batch refused alike reports it once, not once per message.
      if (before?.state === 'stopped') return null;
      if (before !== null) {
        const event = senderHealthEvent(
          before,
          before,
          { ...before, state: 'stopped', stateReason: reason },
          `send refused: ${reason}`,
          now,
        );
        if (event !== null) emit(event);
      }
      return { phoneNumberId: ctx.phoneNumberId, reason };
    }
    case 'none':
      return null;
  }
}

async function applyTemplateEffect(store: EffectsStore, entry: ErrorEntry, ctx: EffectsContext, now: Millis): Promise<void> {
  const t = ctx.template;
  if (t === null || entry.effects.template === 'none') return;
  const current = await store.getTemplate(t.name, t.language);
  const status = ((): 'paused' | 'disabled' | 'unknown' | null => {
    switch (entry.effects.template) {
      case 'pause':
        return 'paused';
      case 'disable':
        return 'disabled';
      case 'review':
        // Meta refused it as sent: Pacer no longer vouches for it as approved until Meta says so
        // again (a template status webhook). A status Meta gave it otherwise stays.
        return current === null || current.status === 'approved' ? 'unknown' : null;
    }
  })();
  if (status === null) return;
  await store.upsertTemplates(
    [
      {
        name: t.name,
        language: t.language,
        category: current?.category ?? t.category,
        status,
        quality: current?.quality ?? null,
        pausedUntil: current?.pausedUntil ?? null,
      },
    ],
    now,
  );
}

/**
 * A code that pauses campaigns pauses the message's own; a stopped sender pauses every running
 * campaign on it too, since none of them can send. Campaigns already paused keep their reason.
 */
async function applyCampaignEffect(
  store: EffectsStore,
  entry: ErrorEntry,
  code: number,
  ctx: EffectsContext,
  now: Millis,
  emit: EmitEvent,
): Promise<EffectsApplied['campaignsPaused']> {
  const senderStops = entry.effects.sender === 'stop';
  if (entry.effects.campaign !== 'pause' && !senderStops) return [];
  const toPause = new Map<number, Campaign>();
  const own = ctx.campaignId === null ? null : await store.getCampaign(ctx.campaignId);
  if (own?.status === 'running') toPause.set(own.id, own);
  if (senderStops) {
    const sender = await store.getSender(ctx.phoneNumberId);
    if (sender !== null)
      for (const c of await store.listCampaigns({ status: 'running' })) if (campaignSendsFrom(c, sender)) toPause.set(c.id, c);
  }
  const t = ctx.template;
  const about = entry.class === 'template_problem' && t !== null ? ` (template ${t.name}, ${t.language})` : '';
  const reason = `Meta refused a send with ${code} ${entry.name}${about}. ${entry.page.action}`;
  const paused: EffectsApplied['campaignsPaused'] = [];
  for (const campaign of toPause.values()) {
    if (await changeCampaignStatus(store, campaign, 'paused', reason, now, emit)) paused.push({ campaignId: campaign.id, reason });
  }
  return paused;
}
