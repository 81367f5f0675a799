import { createCampaign } from '../src/app/create-campaign.js';
import { importContactRecords } from '../src/app/import-contact-records.js';
import type { ParameterMapping } from '../src/core/template-parameters.js';
import { DEFAULT_POLICY } from '../src/core/policy.js';
import type { JsonObject, JsonValue, Store } from '../src/ports/store.js';

/** A synced marketing template with a header, a footer, a URL button and a "Stop promotions" button. */
export const COUPON_COMPONENTS: JsonValue[] = [
  { type: 'HEADER', format: 'TEXT', text: 'Your coupon' },
  { type: 'BODY', text: 'Hi {{1}}, your {{2}} coupon is waiting.' },
  { type: 'FOOTER', text: 'Tap Stop promotions to opt out' },
  {
    type: 'BUTTONS',
    buttons: [
      { type: 'URL', text: 'Shop', url: 'https://shop.example/c/{{1}}' },
      { type: 'QUICK_REPLY', text: 'Stop promotions' },
    ],
  },
];

export const COUPON_MAPPING: ParameterMapping = {
  'body.1': { attribute: 'first_name' },
  'body.2': { attribute: 'coupon' },
  'button.0': { attribute: 'coupon' },
};

/**
 * Seven people, in id order: two with everything, two without a first name, one whose first name
 * is not text, one with a name longer than Meta allows and one with another such name — and, last,
 * Fay, who never gave marketing consent, so the campaign's segment leaves her out.
 */
export const PEOPLE: ReadonlyArray<{ phone: string; marketing: boolean; attributes: JsonObject }> = [
  { phone: '+447700900101', marketing: true, attributes: { first_name: 'Ada', coupon: 'ADA15' } },
  { phone: '+447700900102', marketing: true, attributes: { first_name: 'Bob', coupon: 'BOB10' } },
  { phone: '+447700900103', marketing: true, attributes: { coupon: 'CY5' } },
  { phone: '+447700900104', marketing: true, attributes: { coupon: 'DI5' } },
  { phone: '+447700900105', marketing: true, attributes: { first_name: { given: 'Eve' }, coupon: 'EVE5' } },
  { phone: '+447700900106', marketing: true, attributes: { first_name: 'G'.repeat(1100), coupon: 'G5' } },
  { phone: '+447700900107', marketing: true, attributes: { first_name: 'H'.repeat(1300), coupon: 'H5' } },
  { phone: '+447700900108', marketing: false, attributes: { first_name: 'Fay', coupon: 'FAY20' } },
];

export const SENDER = 'pn-preview';

export async function addCouponTemplate(store: Store, now: number, components: JsonValue[] | null = COUPON_COMPONENTS): Promise<void> {
  const template = { name: 'coupon_drop', language: 'en_US', category: 'marketing' as const, status: 'approved' as const };
  if (components === null) {
    await store.upsertTemplates([{ ...template, quality: null, pausedUntil: null }], now);
    return;
  }
  await store.upsertSyncedTemplates(
    [
      {
        ...template,
        quality: 'GREEN',
        pausedUntil: null,
        metaId: '9101',
        subCategory: null,
        parameterFormat: 'positional',
        components,
      },
    ],
    now,
  );
}

export async function importPeople(store: Store, now: number): Promise<number[]> {
  const { ids } = await importContactRecords(
    store,
    PEOPLE.map((p) => ({ phoneE164: p.phone, name: null, tags: [], attributes: p.attributes, consent: { marketing: p.marketing } })),
    'test',
    DEFAULT_POLICY,
    now,
  );
  return ids;
}

export async function createCouponCampaign(store: Store, now: number, parameters: ParameterMapping = COUPON_MAPPING): Promise<number> {
  const created = await createCampaign(
    store,
    { name: 'coupons', template: { name: 'coupon_drop', language: 'en_US' }, sender: { phoneNumberId: SENDER }, segment: {}, parameters },
    now,
  );
  if (!created.ok) throw new Error(created.problem);
  return created.campaign.id;
}

/** The template, the people and a campaign mapping first_name and coupon; returns the ids. */
export async function seedPreview(store: Store, now: number): Promise<{ campaignId: number; contactIds: number[] }> {
  await addCouponTemplate(store, now);
  const contactIds = await importPeople(store, now);
  return { campaignId: await createCouponCampaign(store, now), contactIds };
}
