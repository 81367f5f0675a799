import { describe, expect, it } from 'vitest';
import { createCampaign, NEW_SENDER_DEFAULTS } from '../src/app/create-campaign.js';
import { previewCampaign } from '../src/app/preview-campaign.js';
import { startCampaign } from '../src/app/start-campaign.js';
import { NO_DISPATCHER_HERE } from '../src/app/work-signal.js';
import { DEFAULT_POLICY } from '../src/core/policy.js';
import type { JsonObject, JsonValue } from '../src/ports/store.js';
import { addCouponTemplate, createCouponCampaign, importPeople, seedPreview, SENDER } from './preview-seed.js';
import { BACKENDS } from './store-backends.js';

const T0 = Date.UTC(2026, 5, 1, 9);
const options = { stopButtons: DEFAULT_POLICY.stopButtons };

const coupon = (name: string, code: string) => ({
  header: 'Your coupon',
  body: `Hi ${name}, your ${code} coupon is waiting.`,
  footer: 'Tap Stop promotions to opt out',
  buttons: [`Shop → https://shop.example/c/${code}`, 'Stop promotions'],
});

const SKIPS = [
  {
    reason: 'invalid_parameter',
    slot: 'body.1',
    detail: 'body {{1}}: first_name is longer than the 1024 characters Meta allows',
    count: 2,
  },
  { reason: 'missing_parameter', slot: 'body.1', detail: 'body {{1}}: first_name is missing', count: 2 },
  { reason: 'invalid_parameter', slot: 'body.1', detail: 'body {{1}}: first_name is not text', count: 1 },
];

describe.each(BACKENDS)('campaign preview ($name)', (backend) => {
  it('shows each sample with its own values, and counts the skipped under their reason and slot', async () => {
    const store = await backend.open();
    const { campaignId, contactIds } = await seedPreview(store, T0);
    const r = await previewCampaign(store, campaignId, T0, options);
    expect(r).toEqual({
      ok: true,
      preview: {
        campaignId,
        template: { name: 'coupon_drop', language: 'en_US', category: 'marketing', placeholdersKnown: true },
        notice: null,
        samples: [
          { contactId: contactIds[0], to: '+447700900101', inSegment: true, preview: coupon('Ada', 'ADA15') },
          { contactId: contactIds[1], to: '+447700900102', inSegment: true, preview: coupon('Bob', 'BOB10') },
          {
            contactId: contactIds[2],
            to: '+447700900103',
            inSegment: true,
            skipped: { reason: 'missing_parameter', slot: 'body.1', detail: 'body {{1}}: first_name is missing' },
          },
        ],
        // Fay has no marketing consent: the segment leaves her out.
        audience: { matched: 7, wouldSend: 2, skipped: SKIPS, complete: true },
      },
    });
    // The count is the start's own: the same audience, and nothing was written.
    expect(await store.campaignCounters(campaignId)).toMatchObject({ total: 0 });
    expect(await startCampaign(store, campaignId, { phoneNumberId: SENDER }, T0, NO_DISPATCHER_HERE)).toMatchObject({ matched: 7 });
  });

  it('shows as many samples as asked, or none while still counting', async () => {
    const store = await backend.open();
    const { campaignId, contactIds } = await seedPreview(store, T0);
    const one = await previewCampaign(store, campaignId, T0, { ...options, sample: 1 });
    expect(one.ok && one.preview.samples.map((s) => s.contactId)).toEqual([contactIds[0]]);
    const none = await previewCampaign(store, campaignId, T0, { ...options, sample: 0 });
    expect(none.ok && none.preview).toMatchObject({ samples: [], audience: { matched: 7, wouldSend: 2 } });
    await expect(previewCampaign(store, campaignId, T0, { ...options, sample: 21 })).rejects.toThrow(
      /sample must be a whole number from 0 to 20/,
    );
  });

  it('previews one contact the segment leaves out, saying so, and one it selects', async () => {
    const store = await backend.open();
    const { campaignId, contactIds } = await seedPreview(store, T0);
    const fay = await previewCampaign(store, campaignId, T0, { ...options, contact: { phoneE164: '+447700900108' } });
    expect(fay.ok && fay.preview.samples).toEqual([
      { contactId: contactIds[7], to: '+447700900108', inSegment: false, preview: coupon('Fay', 'FAY20') },
    ]);
    // The audience is the segment's still.
    expect(fay.ok && fay.preview.audience).toMatchObject({ matched: 7, wouldSend: 2 });
    const bob = await previewCampaign(store, campaignId, T0, { ...options, contact: { id: contactIds[1] ?? -1 } });
    expect(bob.ok && bob.preview.samples).toEqual([
      { contactId: contactIds[1], to: '+447700900102', inSegment: true, preview: coupon('Bob', 'BOB10') },
    ]);
    const eve = await previewCampaign(store, campaignId, T0, { ...options, contact: { waId: '447700900105' } });
    expect(eve.ok && eve.preview.samples[0]).toMatchObject({
      inSegment: true,
      skipped: { reason: 'invalid_parameter', slot: 'body.1', detail: 'body {{1}}: first_name is not text' },
    });
    expect(await previewCampaign(store, campaignId, T0, { ...options, contact: { phoneE164: '+447700900999' } })).toEqual({
      ok: false,
      problem: 'contact_not_found',
    });
    expect(await previewCampaign(store, campaignId, T0, { ...options, contact: { id: 999_999 } })).toEqual({
      ok: false,
      problem: 'contact_not_found',
    });
  });

  it('says so for a template whose placeholders Pacer does not know, and counts everyone as sent as registered', async () => {
    const store = await backend.open();
    await addCouponTemplate(store, T0, null);
    const contactIds = await importPeople(store, T0);
    const campaignId = await createCouponCampaign(store, T0, {});
    const r = await previewCampaign(store, campaignId, T0, { ...options, sample: 2 });
    expect(r).toEqual({
      ok: true,
      preview: {
        campaignId,
        template: { name: 'coupon_drop', language: 'en_US', category: 'marketing', placeholdersKnown: false },
        notice: expect.stringMatching(/registered by hand, so Pacer knows neither its text nor its placeholders.*pacer template sync/),
        samples: [
          { contactId: contactIds[0], to: '+447700900101', inSegment: true, preview: null },
          { contactId: contactIds[1], to: '+447700900102', inSegment: true, preview: null },
        ],
        audience: { matched: 7, wouldSend: 7, skipped: [], complete: true },
      },
    });
  });

  it('says a campaign that maps attributes onto a template Pacer does not know cannot start', async () => {
    const store = await backend.open();
    await addCouponTemplate(store, T0, null);
    await importPeople(store, T0);
    // Only possible behind createCampaign's back (it refuses such a mapping), as an older row might be.
    const template = await store.getTemplate('coupon_drop', 'en_US');
    const [senderId = -1] = await store.upsertSenders([{ phoneNumberId: SENDER, displayNumber: SENDER, ...NEW_SENDER_DEFAULTS }], T0);
    const campaignId = await store.createCampaign(
      {
        name: 'odd',
        templateId: template?.id ?? -1,
        senderId,
        segment: { consent: ['marketing'] },
        scheduledAt: null,
        policyPreset: 'meta',
        status: 'draft',
        parameters: { 'body.1': { attribute: 'first_name' } },
      },
      T0,
    );
    const r = await previewCampaign(store, campaignId, T0, { ...options, sample: 0 });
    expect(r.ok && r.preview).toMatchObject({
      template: { placeholdersKnown: false },
      notice: expect.stringContaining('it cannot start until `pacer template sync` reads the template'),
      audience: { matched: 7, wouldSend: 0, skipped: [], complete: true },
    });
    await expect(startCampaign(store, campaignId, { phoneNumberId: SENDER }, T0, NO_DISPATCHER_HERE)).rejects.toThrow(
      /placeholders are not known/,
    );
  });

  it('renders values the same for everyone once, and counts the audience in the store', async () => {
    const store = await backend.open();
    await addCouponTemplate(store, T0);
    await importPeople(store, T0);
    const campaignId = await createCouponCampaign(store, T0, {
      'body.1': { value: 'friend' },
      'body.2': { value: 'SPRING' },
      'button.0': { value: 'SPRING' },
    });
    const r = await previewCampaign(store, campaignId, T0, { ...options, sample: 1 });
    expect(r.ok && r.preview).toMatchObject({
      samples: [{ inSegment: true, preview: coupon('friend', 'SPRING') }],
      audience: { matched: 7, wouldSend: 7, skipped: [], complete: true },
    });
  });

  it('counts every page of a large segment', async () => {
    const store = await backend.open();
    const components: JsonValue[] = [{ type: 'BODY', text: 'Hi {{1}}, your order is on its way.' }];
    await store.upsertSyncedTemplates(
      [
        {
          name: 'shipped',
          language: 'en',
          category: 'utility',
          status: 'approved',
          quality: null,
          pausedUntil: null,
          metaId: '9102',
          subCategory: null,
          parameterFormat: 'positional',
          components,
        },
      ],
      T0,
    );
    // 5003 contacts, more than one page; every thousandth has no first name.
    await store.upsertContacts(
      Array.from({ length: 5003 }, (_, i) => ({
        waId: `4477009${String(i).padStart(5, '0')}`,
        attributes: (i % 1000 === 999 ? {} : { first_name: `P${i}` }) as JsonObject,
      })),
      T0,
    );
    const created = await createCampaign(
      store,
      {
        name: 'shipping',
        template: { name: 'shipped', language: 'en' },
        sender: { phoneNumberId: SENDER },
        segment: {},
        parameters: { 'body.1': { attribute: 'first_name' } },
      },
      T0,
    );
    if (!created.ok) throw new Error(created.problem);
    const r = await previewCampaign(store, created.campaign.id, T0, options);
    expect(r.ok && r.preview.audience).toEqual({
      matched: 5003,
      wouldSend: 4998,
      skipped: [{ reason: 'missing_parameter', slot: 'body.1', detail: 'body {{1}}: first_name is missing', count: 5 }],
      complete: true,
    });
    // Bounded, as the dashboard's page view counts: the first 2,500 contacts only, and it says so.
    const bounded = await previewCampaign(store, created.campaign.id, T0, { ...options, countUpTo: 2500 });
    expect(bounded.ok && bounded.preview.audience).toEqual({
      matched: 2500,
      wouldSend: 2498,
      skipped: [{ reason: 'missing_parameter', slot: 'body.1', detail: 'body {{1}}: first_name is missing', count: 2 }],
      complete: false,
    });
    expect(r.ok && r.preview.samples.map((s) => ('preview' in s ? s.preview?.body : null))).toEqual([
      'Hi P0, your order is on its way.',
      'Hi P1, your order is on its way.',
      'Hi P2, your order is on its way.',
    ]);
  });

  it('answers a missing campaign plainly', async () => {
    const store = await backend.open();
    expect(await previewCampaign(store, 4242, T0, options)).toEqual({ ok: false, problem: 'campaign_not_found' });
  });
});
