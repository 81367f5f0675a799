import { DEFAULT_POLICY } from '../core/policy.js';
import type { SegmentDefinition } from '../core/segment.js';
import { freezeValues, renderParameters, type ParameterMapping, type RenderOptions } from '../core/template-parameters.js';
import type { Millis } from '../core/time.js';
import type {
  CampaignOutboxStore,
  CampaignStore,
  ContactStore,
  JsonObject,
  OutboxInput,
  OutboxStore,
  TemplateStore,
} from '../ports/store.js';
import type { WorkQueued } from '../ports/work-signal.js';
import type { OutboxIntent } from './outbox-intent.js';
import { parseSegment } from './segment-schema.js';
import { readMapping, templateShape, type TemplateShape } from './template-mapping.js';

// Contacts per page; each page is one transaction, so other writers get their turn in between.
const PAGE = 5000;

export interface StartCampaignResult {
  scanned: number;
  matched: number;
  /** New outbox rows; 0 when the campaign was already started (starting twice never creates twice). */
  inserted: number;
}

type StartStore = CampaignStore &
  TemplateStore &
  CampaignOutboxStore &
  Pick<ContactStore, 'segmentContacts'> &
  Pick<OutboxStore, 'insertOutbox'>;

/**
 * Expands a campaign's segment into one outbox row per contact and sets it running. Rows are due at
 * the campaign's scheduled time; `decide` still judges each one when it comes up. Each row's template
 * values are rendered here and frozen into it, so a retry days later sends what the first attempt
 * sent; a recipient whose values Meta would refuse gets a row that says why, and is skipped.
 */
export async function startCampaign(
  store: StartStore,
  campaignId: number,
  sender: { phoneNumberId: string },
  now: Millis,
  signal: WorkQueued,
  options: RenderOptions = { stopButtons: DEFAULT_POLICY.stopButtons },
): Promise<StartCampaignResult> {
  const campaign = await store.getCampaign(campaignId);
  if (campaign === null) throw new Error(`campaign ${campaignId} does not exist`);
  if (campaign.status === 'cancelled' || campaign.status === 'completed')
    throw new Error(`campaign ${campaignId} is ${campaign.status}; it cannot start again`);
  const template = await store.getTemplateById(campaign.templateId);
  if (template === null) throw new Error(`campaign ${campaignId}: template ${campaign.templateId} does not exist`);
  const segment = parseSegment(campaign.segment, `campaign ${campaignId} segment`);
  const dueAt = Math.max(now, campaign.scheduledAt ?? now);
  const shape = templateShape(template);
  const mapping = readMapping(campaign.parameters, `campaign ${campaignId}`);
  const base = { phoneNumberId: sender.phoneNumberId, template: { name: template.name, language: template.language } };
  const row = { campaignId, senderId: campaign.senderId, category: template.category, nextAttemptAt: dueAt };

  const perRecipient = Object.values(mapping).some((s) => 'attribute' in s);
  const result = perRecipient
    ? await insertRendered(store, { ...row, base, shape, mapping, segment, options }, now)
    : await insertShared(store, { ...row, intent: sharedIntent(base, shape, mapping, options, campaignId), segment }, now);
  // Starting again never lifts a pause: a breaker's or an operator's pause ends only with a resume.
  if (campaign.status !== 'paused') {
    await store.setCampaignStatus(campaignId, 'running', null, now);
    signal.notifyQueued(dueAt);
  }
  return result;
}

type Base = { phoneNumberId: string; template: { name: string; language: string } };

/** Values the same for everyone (constants, media) are rendered once; the rows are planned inside the store. */
function sharedIntent(base: Base, shape: TemplateShape, mapping: ParameterMapping, options: RenderOptions, id: number): JsonObject {
  if (shape.kind === 'unknown') return base satisfies OutboxIntent;
  const r = renderParameters(shape.definition, shape.category, mapping, { name: null, attributes: {} }, options);
  if (!r.ok) throw new Error(`campaign ${id}: ${r.detail}`);
  const intent = r.values.size === 0 ? base : { ...base, template: { ...base.template, values: freezeValues(r.values) } };
  return intent as unknown as JsonObject;
}

async function insertShared(
  store: StartStore,
  plan: {
    campaignId: number;
    senderId: number;
    category: OutboxInput['category'];
    nextAttemptAt: Millis;
    intent: JsonObject;
    segment: SegmentDefinition;
  },
  now: Millis,
): Promise<StartCampaignResult> {
  const result: StartCampaignResult = { scanned: 0, matched: 0, inserted: 0 };
  // The segment is matched inside the store (matchesSegment's rules as SQL): no contact is loaded here.
  for (let afterId = 0; ;) {
    const page = await store.insertSegmentOutbox(plan, afterId, PAGE, now);
    if (page.lastContactId === null) return result;
    afterId = page.lastContactId;
    result.scanned += page.scanned;
    result.matched += page.matched;
    result.inserted += page.inserted;
  }
}

async function insertRendered(
  store: StartStore,
  p: {
    campaignId: number;
    senderId: number;
    category: OutboxInput['category'];
    nextAttemptAt: Millis;
    base: Base;
    shape: TemplateShape;
    mapping: ParameterMapping;
    segment: SegmentDefinition;
    options: RenderOptions;
  },
  now: Millis,
): Promise<StartCampaignResult> {
  const { shape } = p;
  if (shape.kind === 'unknown')
    throw new Error(`campaign ${p.campaignId}: its template's placeholders are not known; run \`pacer template sync\``);
  const result: StartCampaignResult = { scanned: 0, matched: 0, inserted: 0 };
  // A page of matching contacts at a time: memory stays flat whatever the audience.
  for (let afterId = 0; ;) {
    const page = await store.segmentContacts(p.segment, now, afterId, PAGE);
    if (page.lastContactId === null) return result;
    afterId = page.lastContactId;
    result.scanned += page.scanned;
    result.matched += page.matched;
    if (page.contacts.length === 0) continue;
    const rows = page.contacts.map((c): OutboxInput => {
      const r = renderParameters(shape.definition, shape.category, p.mapping, c, p.options);
      const intent = r.ok
        ? { ...p.base, template: { ...p.base.template, values: freezeValues(r.values) } }
        : { ...p.base, parameterProblem: { reason: r.reason, detail: r.detail } };
      return {
        campaignId: p.campaignId,
        contactId: c.id,
        senderId: p.senderId,
        category: p.category,
        intent: intent as unknown as JsonObject,
        idempotencyKey: null,
        nextAttemptAt: p.nextAttemptAt,
      };
    });
    result.inserted += (await store.insertOutbox(rows, now)).inserted;
  }
}
