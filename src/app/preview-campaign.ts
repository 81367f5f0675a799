import { problemPattern } from '../core/parameter-problem-pattern.js';
import type { SegmentDefinition } from '../core/segment.js';
import { valueFreezer, type FreezeResult } from '../core/template-freeze.js';
import { renderParameters, type RenderResult } from '../core/template-parameters.js';
import type { ParameterProblemReason, RecipientFields, RenderOptions } from '../core/template-slot-values.js';
import { previewMessage, type MessagePreview } from '../core/template-preview.js';
import type { Millis } from '../core/time.js';
import type { Category } from '../core/category.js';
import type { CampaignStore, Contact, ContactKey, ContactStore, TemplateStore } from '../ports/store.js';
import { parseSegment } from './segment-schema.js';
import { readMapping, templateShape, type TemplateShape } from './template-mapping.js';

// Contacts rendered per page while counting, as a start pages them.
const PAGE = 5000;
export const DEFAULT_PREVIEW_SAMPLE = 3;
export const MAX_PREVIEW_SAMPLE = 20;

export interface PreviewCampaignOptions {
  /** How many of the segment's recipients to show, first by contact id (default 3; 0 counts only). */
  sample?: number;
  /** Show this contact instead, whether or not the segment selects it. */
  contact?: ContactKey | { id: number };
  stopButtons: RenderOptions['stopButtons'];
  /** Count at most this many of the segment's contacts (the dashboard's page view); absent: all of them. */
  countUpTo?: number;
}

export interface ParameterSkip {
  reason: ParameterProblemReason;
  /** The slot key (`body.1`, `header`, `button.0`). */
  slot: string;
  detail: string;
}

interface SampleBase {
  contactId: number;
  /** The contact's address as stored, in full: each adapter masks it before showing it. */
  to: string;
  /** Whether the campaign's segment selects the contact now. */
  inSegment: boolean;
}

/** One recipient: the message as they would read it (null when Pacer does not know the template's text), or why they would be skipped. */
export type PreviewSample = (SampleBase & { preview: MessagePreview | null }) | (SampleBase & { skipped: ParameterSkip });

/** Recipients skipped for the same reason, slot and problem; `detail` carries no recipient's own value. */
export interface SkipGroup extends ParameterSkip {
  count: number;
}

export interface CampaignPreview {
  campaignId: number;
  template: {
    name: string;
    language: string;
    category: Category;
    /** False for a template registered by hand: Pacer knows neither its text nor its placeholders. */
    placeholdersKnown: boolean;
  };
  /** Something the operator should know before starting (an unknown template), or null. */
  notice: string | null;
  samples: PreviewSample[];
  audience: {
    /** Contacts the segment selects now. */
    matched: number;
    /** Of them, those with every template value; each is still judged by the send decision when its turn comes. */
    wouldSend: number;
    skipped: SkipGroup[];
    /** False when counting stopped at `countUpTo`: the figures are for the first contacts only. */
    complete: boolean;
  };
}

export type PreviewCampaignResult =
  { ok: true; preview: CampaignPreview } | { ok: false; problem: 'campaign_not_found' | 'contact_not_found' };

type PreviewStore = Pick<CampaignStore, 'getCampaign'> &
  Pick<TemplateStore, 'getTemplateById'> &
  Pick<ContactStore, 'segmentContacts' | 'countSegment' | 'getContact' | 'findContact'>;

type Render = (fields: RecipientFields) => RenderResult | null;

/**
 * What a start would render now: the message as a few recipients (or one named contact) would
 * read it, and how many of the segment's recipients would be skipped for which missing value.
 * Nothing is written.
 */
export async function previewCampaign(
  store: PreviewStore,
  campaignId: number,
  now: Millis,
  options: PreviewCampaignOptions,
): Promise<PreviewCampaignResult> {
  const sample = options.sample ?? DEFAULT_PREVIEW_SAMPLE;
  if (!Number.isInteger(sample) || sample < 0 || sample > MAX_PREVIEW_SAMPLE)
    throw new RangeError(`sample must be a whole number from 0 to ${MAX_PREVIEW_SAMPLE}, got ${sample}`);
  const campaign = await store.getCampaign(campaignId);
  if (campaign === null) return { ok: false, problem: 'campaign_not_found' };
  const template = await store.getTemplateById(campaign.templateId);
  if (template === null) throw new Error(`campaign ${campaignId}: template ${campaign.templateId} does not exist`);
  const segment = parseSegment(campaign.segment, `campaign ${campaignId} segment`);
  const mapping = readMapping(campaign.parameters, `campaign ${campaignId}`);
  const shape = templateShape(template);
  const perRecipient = Object.values(mapping).some((s) => 'attribute' in s);
  const render: Render = (fields) =>
    shape.kind === 'known' ? renderParameters(shape.definition, shape.category, mapping, fields, options) : null;
  const toSample = sampleMaker(shape, render);
  const limit = options.countUpTo ?? Infinity;

  let samples: PreviewSample[];
  if (options.contact !== undefined) {
    const contact = await findContact(store, options.contact);
    if (contact === null) return { ok: false, problem: 'contact_not_found' };
    samples = [toSample(contact, await selects(store, segment, now, contact.id))];
  } else {
    samples = await segmentSamples(store, segment, now, sample, toSample);
  }
  const audience =
    shape.kind === 'unknown' && perRecipient
      ? { ...(await sameForAll(store, segment, now, render, limit)), wouldSend: 0 }
      : perRecipient
        ? await renderEach(
            store,
            segment,
            now,
            shape.kind === 'known' ? valueFreezer(shape.definition, shape.category, mapping, options) : () => null,
            limit,
          )
        : await sameForAll(store, segment, now, render, limit);
  return {
    ok: true,
    preview: {
      campaignId,
      template: {
        name: template.name,
        language: template.language,
        category: template.category,
        placeholdersKnown: shape.kind === 'known',
      },
      notice: shape.kind === 'known' ? null : unknownNotice(template.name, template.language, perRecipient),
      samples,
      audience,
    },
  };
}

function unknownNotice(name: string, language: string, perRecipient: boolean): string {
  const what = `${name}/${language} was registered by hand, so Pacer knows neither its text nor its placeholders`;
  return perRecipient
    ? `${what}, and the campaign maps attributes to them: it cannot start until \`pacer template sync\` reads the template`
    : `${what}: it is sent as registered, without values (run \`pacer template sync\` to preview it)`;
}

async function findContact(store: PreviewStore, key: ContactKey | { id: number }): Promise<Contact | null> {
  return 'id' in key ? store.getContact(key.id) : store.findContact(key);
}

/** Asks the store with a one-contact page, so the answer is the segment's own rule as a start applies it. */
async function selects(store: PreviewStore, segment: SegmentDefinition, now: Millis, contactId: number): Promise<boolean> {
  const page = await store.segmentContacts(segment, now, contactId - 1, 1);
  return page.contacts.some((c) => c.id === contactId);
}

function addressOf(c: Contact): string {
  return c.phoneE164 ?? (c.waId === null ? null : `+${c.waId}`) ?? c.bsuid ?? `contact ${c.id}`;
}

function sampleMaker(shape: TemplateShape, render: Render): (c: Contact, inSegment: boolean) => PreviewSample {
  return (c, inSegment) => {
    const base = { contactId: c.id, to: addressOf(c), inSegment };
    const r = render(c);
    if (r === null || shape.kind === 'unknown') return { ...base, preview: null };
    if (!r.ok) return { ...base, skipped: { reason: r.reason, slot: r.slot, detail: r.detail } };
    return { ...base, preview: previewMessage(shape.definition, r.values) };
  };
}

async function segmentSamples(
  store: PreviewStore,
  segment: SegmentDefinition,
  now: Millis,
  n: number,
  toSample: (c: Contact, inSegment: boolean) => PreviewSample,
): Promise<PreviewSample[]> {
  const ids: number[] = [];
  for (let afterId = 0; ids.length < n;) {
    const page = await store.segmentContacts(segment, now, afterId, PAGE);
    if (page.lastContactId === null) break;
    afterId = page.lastContactId;
    ids.push(...page.contacts.slice(0, n - ids.length).map((c) => c.id));
  }
  const contacts = await Promise.all(ids.map((id) => store.getContact(id)));
  return contacts.flatMap((c) => (c === null ? [] : [toSample(c, true)]));
}

type Audience = CampaignPreview['audience'];

/** Every recipient rendered, a page at a time; skips grouped by reason, slot and problem. */
/** Counting needs only whether each recipient's values hold, not their send components. */
type Check = (fields: RecipientFields) => FreezeResult | null;

async function renderEach(store: PreviewStore, segment: SegmentDefinition, now: Millis, render: Check, limit: number): Promise<Audience> {
  const groups = new Map<string, SkipGroup>();
  let matched = 0;
  let wouldSend = 0;
  let scanned = 0;
  for (let afterId = 0; ;) {
    if (scanned >= limit) return { matched, wouldSend, skipped: sortGroups([...groups.values()]), complete: false };
    const page = await store.segmentContacts(segment, now, afterId, Math.min(PAGE, limit - scanned));
    if (page.lastContactId === null) break;
    scanned += page.scanned;
    afterId = page.lastContactId;
    matched += page.matched;
    for (const c of page.contacts) {
      const r = render(c);
      if (r === null || r.ok) {
        wouldSend++;
        continue;
      }
      const detail = problemPattern(r.detail);
      const key = `${r.reason}\u0000${r.slot}\u0000${detail}`;
      const group = groups.get(key) ?? { reason: r.reason, slot: r.slot, detail, count: 0 };
      group.count++;
      groups.set(key, group);
    }
  }
  return { matched, wouldSend, skipped: sortGroups([...groups.values()]), complete: true };
}

/** Values that are the same for everyone (or none Pacer knows of): rendered once, the audience counted inside the store. */
async function sameForAll(store: PreviewStore, segment: SegmentDefinition, now: Millis, render: Render, limit: number): Promise<Audience> {
  let matched = 0;
  let scanned = 0;
  let complete = true;
  for (let afterId = 0; ;) {
    if (scanned >= limit) {
      complete = false;
      break;
    }
    const page = await store.countSegment(segment, now, afterId, Math.min(PAGE, limit - scanned));
    if (page.lastContactId === null) break;
    afterId = page.lastContactId;
    scanned += page.scanned;
    matched += page.matched;
  }
  const r = render({ name: null, attributes: {} });
  if (r === null || r.ok) return { matched, wouldSend: matched, skipped: [], complete };
  const skipped = matched === 0 ? [] : [{ reason: r.reason, slot: r.slot, detail: problemPattern(r.detail), count: matched }];
  return { matched, wouldSend: 0, skipped, complete };
}

function sortGroups(groups: SkipGroup[]): SkipGroup[] {
  return groups.sort((a, b) => b.count - a.count || a.slot.localeCompare(b.slot) || a.detail.localeCompare(b.detail));
}
