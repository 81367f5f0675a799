import type { Category } from '../src/core/category.js';
import type { Store } from '../src/ports/store.js';

/** One approved template and the number, healthy and unlimited: what a dispatcher test sends with. Returns the sender's id. */
export async function seedSenderAndTemplate(
  store: Store,
  phoneNumberId: string,
  template: { name: string; category: Category },
  at: number,
): Promise<number> {
  await store.upsertTemplates([{ ...template, language: 'en_US', status: 'approved', quality: 'GREEN', pausedUntil: null }], at);
  const [senderId] = await store.upsertSenders(
    [
      {
        phoneNumberId,
        displayNumber: '+1 555 0100',
        qualityRating: 'GREEN',
        throughputMps: 80,
        messagingLimitTier: 'TIER_UNLIMITED',
        state: 'ok',
        stateReason: null,
        stateUntil: null,
      },
    ],
    at,
  );
  if (senderId === undefined) throw new Error('seed: the sender was not stored');
  return senderId;
}
