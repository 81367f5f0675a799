import { describe, expect, it } from 'vitest';
import type { SyncedTemplateInput } from '../src/ports/store.js';
import { BACKENDS } from './store-backends.js';
import { NAMED_MARKETING } from './meta-template-examples.js';

const T0 = Date.UTC(2026, 0, 5, 9, 0, 0);

const synced: SyncedTemplateInput = {
  name: 'spring_promo_named',
  language: 'en_GB',
  category: 'marketing',
  status: 'approved',
  quality: 'GREEN',
  pausedUntil: null,
  metaId: '880000000000001',
  subCategory: 'CUSTOM',
  parameterFormat: 'named',
  components: NAMED_MARKETING.components,
  sendTtlSeconds: 43_200,
};

describe.each(BACKENDS)('Store contract: templates synced from Meta ($name)', (backend) => {
  it('keeps Meta’s id, sub-category, parameter format, components and time-to-live, and when the sync saw them', async () => {
    const store = await backend.open();
    const [id] = await store.upsertSyncedTemplates([synced], T0);
    expect(await store.getTemplate('spring_promo_named', 'en_GB')).toEqual({
      id,
      name: 'spring_promo_named',
      language: 'en_GB',
      category: 'marketing',
      status: 'approved',
      quality: 'GREEN',
      pausedUntil: null,
      updatedAt: T0,
      metaId: '880000000000001',
      subCategory: 'CUSTOM',
      parameterFormat: 'named',
      components: NAMED_MARKETING.components,
      sendTtlSeconds: 43_200,
      syncedAt: T0,
    });
    // Meta lists none again (a category change resets it): none is stored.
    await store.upsertSyncedTemplates([{ ...synced, sendTtlSeconds: null }], T0 + 1);
    expect(await store.getTemplate('spring_promo_named', 'en_GB')).toMatchObject({ sendTtlSeconds: null });
  });

  it('updates a template by name and language; a status-only change leaves what the sync stored', async () => {
    const store = await backend.open();
    const [offline] = await store.upsertTemplates(
      [{ name: 'spring_promo_named', language: 'en_GB', category: 'utility', status: 'approved', quality: null, pausedUntil: null }],
      T0,
    );
    expect(await store.getTemplateById(offline!)).toMatchObject({
      metaId: null,
      components: null,
      parameterFormat: null,
      sendTtlSeconds: null,
      syncedAt: null,
    });
    const [again] = await store.upsertSyncedTemplates([synced], T0 + 1000);
    expect(again).toBe(offline);
    expect(await store.getTemplateById(offline!)).toMatchObject({ category: 'marketing', metaId: '880000000000001', syncedAt: T0 + 1000 });
    const current = (await store.getTemplateById(offline!))!;
    await store.upsertTemplates([{ ...current, status: 'paused', pausedUntil: T0 + 5000 }], T0 + 2000);
    expect(await store.getTemplateById(offline!)).toMatchObject({
      status: 'paused',
      pausedUntil: T0 + 5000,
      metaId: '880000000000001',
      components: NAMED_MARKETING.components,
      sendTtlSeconds: 43_200,
      syncedAt: T0 + 1000,
      updatedAt: T0 + 2000,
    });
  });
});
