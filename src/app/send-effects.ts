import type { Category } from '../core/category.js';
import { findErrorByCode } from '../core/error-catalogue/index.js';
import type { Millis } from '../core/time.js';
import type { SenderStore, TemplateStore } from '../ports/store.js';

/**
 * What a refused send means beyond the message itself: a template Meta paused or disabled, a sender
 * that must back off, or one that must stop until an operator acts. Driven by the catalogue's effects.
 */
export async function applySenderAndTemplateEffects(
  store: SenderStore & TemplateStore,
  code: number,
  ctx: { phoneNumberId: string; template: { name: string; language: string; category: Category } | null; backoffUntil: Millis },
  now: Millis,
): Promise<void> {
  const entry = findErrorByCode(code);
  if (entry === undefined) return;
  switch (entry.effects.sender) {
    case 'throttle':
      await store.setSenderState(ctx.phoneNumberId, 'throttled', `${code} ${entry.name}`, ctx.backoffUntil, now);
      break;
    case 'stop':
      await store.setSenderState(ctx.phoneNumberId, 'stopped', `${code} ${entry.name}`, null, now);
      break;
    case 'none':
      break;
  }
  const t = ctx.template;
  if (t === null) return;
  switch (entry.effects.template) {
    case 'pause':
    case 'disable': {
      const current = await store.getTemplate(t.name, t.language);
      await store.upsertTemplates(
        [
          {
            name: t.name,
            language: t.language,
            category: current?.category ?? t.category,
            status: entry.effects.template === 'pause' ? 'paused' : 'disabled',
            quality: current?.quality ?? null,
            pausedUntil: current?.pausedUntil ?? null,
          },
        ],
        now,
      );
      break;
    }
    case 'review':
    case 'none':
      break;
  }
}
