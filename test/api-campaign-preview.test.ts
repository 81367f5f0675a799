import { describe, expect, it } from 'vitest';
import { body, startApi, T0 } from './api-harness.js';
import { COUPON_MAPPING, seedPreview } from './preview-seed.js';
import { BACKENDS } from './store-backends.js';
import { seedCampaign } from './store-seed.js';

interface PreviewJson {
  samples: Array<{ contactId: number; to: string; inSegment: boolean; preview?: { body: string } | null; skipped?: { slot: string } }>;
  audience: { matched: number; wouldSend: number; skipped: Array<{ reason: string; slot: string; detail: string; count: number }> };
}

describe.each(BACKENDS)('REST API: campaign preview ($name)', (backend) => {
  it('gives samples with their own values, masked numbers, and the skip groups', async () => {
    const rig = await startApi(backend);
    const { campaignId, contactIds } = await seedPreview(rig.store, T0);
    const r = await rig.call('GET', `/api/v1/campaigns/${campaignId}/preview?sample=2`);
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({
      campaignId,
      template: { name: 'coupon_drop', language: 'en_US', category: 'marketing', placeholdersKnown: true },
      notice: null,
      samples: [
        { contactId: contactIds[0], to: '+44•••••••101', inSegment: true, preview: { body: 'Hi Ada, your ADA15 coupon is waiting.' } },
        { contactId: contactIds[1], to: '+44•••••••102', inSegment: true, preview: { body: 'Hi Bob, your BOB10 coupon is waiting.' } },
      ],
    });
    expect(body<PreviewJson>(r).audience).toEqual({
      matched: 7,
      wouldSend: 2,
      skipped: [
        {
          reason: 'invalid_parameter',
          slot: 'body.1',
          detail: 'body {{1}}: first_name is longer than the 1024 characters Meta allows',
          count: 2,
        },
        { reason: 'missing_parameter', slot: 'body.1', detail: 'body {{1}}: first_name is missing', count: 2 },
        { reason: 'invalid_parameter', slot: 'body.1', detail: 'body {{1}}: first_name is not text', count: 1 },
      ],
      complete: true,
    });
    expect(r.text).not.toMatch(/7700900\d{3}/);
    // The default sample is three.
    expect(body<PreviewJson>(await rig.call('GET', `/api/v1/campaigns/${campaignId}/preview`)).samples).toHaveLength(3);
  });

  it('previews one contact by phone number, saying whether the segment selects it', async () => {
    const rig = await startApi(backend);
    const { campaignId, contactIds } = await seedPreview(rig.store, T0);
    const fay = await rig.call('GET', `/api/v1/campaigns/${campaignId}/preview?contact=${encodeURIComponent('+447700900108')}`);
    expect(body<PreviewJson>(fay).samples).toEqual([
      expect.objectContaining({
        contactId: contactIds[7],
        inSegment: false,
        preview: expect.objectContaining({ body: 'Hi Fay, your FAY20 coupon is waiting.' }),
      }),
    ]);
    const cy = await rig.call('GET', `/api/v1/campaigns/${campaignId}/preview?contact=447700900103`);
    expect(body<PreviewJson>(cy).samples).toEqual([
      expect.objectContaining({ inSegment: true, skipped: expect.objectContaining({ slot: 'body.1' }) }),
    ]);
    const stranger = await rig.call('GET', `/api/v1/campaigns/${campaignId}/preview?contact=447700900999`);
    expect(stranger).toMatchObject({ status: 404, json: { error: 'not_found', message: 'no contact matches 44•••••••999' } });
  });

  it('refuses a bad sample or contact by name, and answers a missing campaign with 404', async () => {
    const rig = await startApi(backend);
    const { campaignId } = await seedPreview(rig.store, T0);
    for (const q of ['sample=21', 'sample=-1', 'sample=two', 'sample=1.5']) {
      expect(await rig.call('GET', `/api/v1/campaigns/${campaignId}/preview?${q}`), q).toMatchObject({
        status: 400,
        json: { error: 'invalid_query', issues: [{ path: 'sample' }] },
      });
    }
    expect(await rig.call('GET', `/api/v1/campaigns/${campaignId}/preview?contact=${'1'.repeat(65)}`)).toMatchObject({
      status: 400,
      json: { error: 'invalid_query', issues: [{ path: 'contact' }] },
    });
    expect(await rig.call('GET', '/api/v1/campaigns/9999/preview')).toMatchObject({
      status: 404,
      json: { error: 'not_found', message: 'campaign 9999 does not exist' },
    });
    expect((await rig.call('GET', `/api/v1/campaigns/${campaignId}/preview`, { token: null })).status).toBe(401);
  });

  it('says when the template’s placeholders are not known', async () => {
    const rig = await startApi(backend);
    const seed = await seedCampaign(rig.store, T0, 2);
    const r = await rig.call('GET', `/api/v1/campaigns/${seed.campaignId}/preview`);
    expect(r).toMatchObject({
      status: 200,
      json: {
        template: { name: 'promo', placeholdersKnown: false },
        notice: expect.stringContaining('registered by hand'),
        samples: [{ preview: null }, { preview: null }],
        audience: { matched: 2, wouldSend: 2, skipped: [], complete: true },
      },
    });
  });

  it('shows a campaign’s parameter mapping, or null when it has none', async () => {
    const rig = await startApi(backend);
    const { campaignId } = await seedPreview(rig.store, T0);
    const seed = await seedCampaign(rig.store, T0, 0);
    expect((await rig.call('GET', `/api/v1/campaigns/${campaignId}`)).json).toMatchObject({ parameters: COUPON_MAPPING });
    expect((await rig.call('GET', `/api/v1/campaigns/${seed.campaignId}`)).json).toMatchObject({ parameters: null });
    const list = body<{ items: Array<{ id: number; parameters: unknown }> }>(await rig.call('GET', '/api/v1/campaigns'));
    expect(list.items.map((c) => c.parameters)).toEqual([COUPON_MAPPING, null]);
  });
});
