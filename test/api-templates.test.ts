import { describe, expect, it, onTestFinished } from 'vitest';
import { createTemplateApiClient } from '../src/adapters/cloud-api/template-api-client.js';
import { startSimulator, type SimTemplateConfig } from '../src/adapters/simulator/index.js';
import { iso } from '../src/core/time.js';
import type { TemplateApi } from '../src/ports/cloud-api.js';
import { body, startApi, T0 } from './api-harness.js';
import { addCouponTemplate, COUPON_COMPONENTS } from './preview-seed.js';
import { BACKENDS } from './store-backends.js';

const ACCOUNT_TEMPLATES: SimTemplateConfig[] = [
  { name: 'spring_sale', language: 'en_US', category: 'MARKETING', relevance: 0.5 },
  { name: 'order_update', language: 'en_US', category: 'UTILITY', relevance: 0.9 },
  { name: 'login_code', language: 'en_US', category: 'AUTHENTICATION', relevance: 1 },
];

/** A simulated business account and a template client for it (with the right token, or another). */
async function account(token?: string): Promise<{ wabaId: string; api: TemplateApi }> {
  const sim = await startSimulator({ templates: ACCOUNT_TEMPLATES });
  const api = createTemplateApiClient({ baseUrl: sim.url, apiVersion: 'v24.0', accessToken: token ?? sim.config.accessToken });
  onTestFinished(async () => {
    await api.close();
    await sim.stop();
  });
  return { wabaId: sim.config.wabaId, api };
}

interface TemplateJson {
  name: string;
  language: string;
  status: string;
  category: string;
  components: unknown[] | null;
  parameters: Array<{ key: string }> | null;
  syncedAt: string | null;
}

describe.each(BACKENDS)('REST API: templates ($name)', (backend) => {
  it('lists templates with status, category, language, components and the values each needs', async () => {
    const rig = await startApi(backend);
    await rig.store.upsertTemplates(
      [{ name: 'autumn_sale', language: 'en_US', category: 'marketing', status: 'paused', quality: 'RED', pausedUntil: T0 + 3_600_000 }],
      T0,
    );
    await addCouponTemplate(rig.store, T0);
    const r = await rig.call('GET', '/api/v1/templates');
    expect(r.status).toBe(200);
    expect(r.json).toEqual({
      items: [
        {
          id: expect.any(Number) as number,
          name: 'autumn_sale',
          language: 'en_US',
          category: 'marketing',
          status: 'paused',
          quality: 'RED',
          pausedUntil: iso(T0 + 3_600_000),
          metaId: null,
          subCategory: null,
          parameterFormat: null,
          components: null,
          parameters: null,
          unsupported: [],
          syncedAt: null,
          updatedAt: iso(T0),
        },
        {
          id: expect.any(Number) as number,
          name: 'coupon_drop',
          language: 'en_US',
          category: 'marketing',
          status: 'approved',
          quality: 'GREEN',
          pausedUntil: null,
          metaId: '9101',
          subCategory: null,
          parameterFormat: 'positional',
          components: COUPON_COMPONENTS,
          parameters: [
            { key: 'body.1', part: 'body', placeholder: '1', required: true, maxLength: 1024, mediaKind: null, label: 'body {{1}}' },
            { key: 'body.2', part: 'body', placeholder: '2', required: true, maxLength: 1024, mediaKind: null, label: 'body {{2}}' },
            {
              key: 'button.0',
              part: 'url_suffix',
              placeholder: '1',
              required: true,
              maxLength: null,
              mediaKind: null,
              label: 'button 0 (URL suffix)',
            },
            {
              key: 'button.1',
              part: 'quick_reply',
              placeholder: null,
              required: false,
              maxLength: 256,
              mediaKind: null,
              label: 'button 1 (quick-reply payload)',
            },
          ],
          unsupported: [],
          syncedAt: iso(T0),
          updatedAt: iso(T0),
        },
      ],
    });
  });

  it("syncs the account's templates and says what changed; a second sync finds them unchanged", async () => {
    const rig = await startApi(backend, { templateAccount: await account() });
    await rig.store.upsertTemplates(
      [{ name: 'hand_made', language: 'en_US', category: 'utility', status: 'approved', quality: null, pausedUntil: null }],
      T0,
    );
    const first = await rig.call('POST', '/api/v1/templates/sync');
    expect(first).toMatchObject({
      status: 200,
      json: { pages: 1, added: 3, updated: 0, unchanged: 0, removed: 0, offlineOnly: 1, refused: [] },
    });
    const listed = body<{ items: TemplateJson[] }>(await rig.call('GET', '/api/v1/templates')).items;
    expect(listed.map((t) => `${t.name}:${t.category}:${t.status}`)).toEqual([
      'hand_made:utility:approved',
      'login_code:authentication:approved',
      'order_update:utility:approved',
      'spring_sale:marketing:approved',
    ]);
    const synced = listed.filter((t) => t.name !== 'hand_made');
    expect(synced.every((t) => Array.isArray(t.components) && t.components.length > 0 && t.syncedAt === iso(T0))).toBe(true);
    expect(synced.every((t) => Array.isArray(t.parameters))).toBe(true);
    expect(await rig.call('POST', '/api/v1/templates/sync', { body: {} })).toMatchObject({
      status: 200,
      json: { added: 0, updated: 0, unchanged: 3, offlineOnly: 1 },
    });
  });

  it('answers 503 without a business account, 502 when Meta refuses the token, and changes nothing', async () => {
    const none = await startApi(backend);
    expect(await none.call('POST', '/api/v1/templates/sync')).toMatchObject({
      status: 503,
      json: { error: 'no_template_account', message: expect.stringContaining('WHATSAPP_BUSINESS_ACCOUNT_ID') as string },
    });
    const refused = await startApi(backend, { templateAccount: await account('not-the-token') });
    const r = await refused.call('POST', '/api/v1/templates/sync');
    expect(r).toMatchObject({ status: 502, json: { error: 'template_sync_failed' } });
    expect(body<{ message: string }>(r).message).toMatch(/nothing changed: listing templates \(page 1\)/);
    expect(await refused.store.listTemplates()).toEqual([]);
    expect(await refused.call('POST', '/api/v1/templates/sync', { body: { force: true } })).toMatchObject({
      status: 400,
      json: { error: 'invalid_body', issues: [{ path: 'force' }] },
    });
  });
});
