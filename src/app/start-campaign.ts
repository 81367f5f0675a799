import { DEFAULT_POLICY } from '../core/policy.js';
import { plainSlots, slotValueFreezer, valueFreezer } from '../core/template-freeze.js';
import type { ParameterMapping, RenderOptions } from '../core/template-slot-values.js';
import type { Millis } from '../core/time.js';
import type { RecipientShare } from '../core/sender-pool.js';
import type {
  Campaign,
  CampaignOutboxStore,
  CampaignStore,
  JsonObject,
  OutboundEventStore,
  SenderStore,
  Store,
  TemplateStore,
} from '../ports/store.js';
import { changeCampaignStatus, withEvents } from './record-events.js';
import { readPool, sharesOf } from './sender-pool.js';
import type { WorkQueued } from '../ports/work-signal.js';
import { templateIntentWriter, type OutboxIntent } from './outbox-intent.js';
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
  Pick<SenderStore, 'getSender'> &
  OutboundEventStore &
  Partial<Pick<Store, 'transaction' | 'bulkWrites'>>;

/** A campaign that cannot start as it is (ended, or its template or numbers are missing): nothing was planned. */
export class CampaignStartError extends Error {
  override readonly name = 'CampaignStartError';
}

/** Starts a campaign from its own number (`pacer campaign start`, `POST /campaigns/:id/start`). */
export async function startCampaignById(
  store: StartStore & Pick<SenderStore, 'getSenderById'>,
  campaignId: number,
  now: Millis,
  signal: WorkQueued,
  options?: RenderOptions,
): Promise<StartCampaignResult> {
  const campaign = await store.getCampaign(campaignId);
  if (campaign === null) throw new CampaignStartError(`campaign ${campaignId} does not exist`);
  const sender = await store.getSenderById(campaign.senderId);
  if (sender === null) throw new CampaignStartError(`campaign ${campaignId}: its sender number is missing`);
  return startCampaign(store, campaignId, { phoneNumberId: sender.phoneNumberId }, now, signal, options);
}

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
  if (campaign === null) throw new CampaignStartError(`campaign ${campaignId} does not exist`);
  if (campaign.status === 'cancelled' || campaign.status === 'completed')
    throw new CampaignStartError(`campaign ${campaignId} is ${campaign.status}; it cannot start again`);
  const template = await store.getTemplateById(campaign.templateId);
  if (template === null) throw new CampaignStartError(`campaign ${campaignId}: template ${campaign.templateId} does not exist`);
  const segment = parseSegment(campaign.segment, `campaign ${campaignId} segment`);
  const dueAt = Math.max(now, campaign.scheduledAt ?? now);
  const shape = templateShape(template);
  const mapping = readMapping(campaign.parameters, `campaign ${campaignId}`);
  // Values from attributes are each recipient's own; constants are rendered once for all.
  const personal = Object.values(mapping).some((s) => 'attribute' in s);
  const result: StartCampaignResult = { scanned: 0, matched: 0, inserted: 0 };
  const shares = await sharesToStart(store, campaign, sender);
  // A pool's numbers each take their share of the audience, a pass each; a row goes from its share's number only.
  // Many page transactions in a row: as the store writes bulk fastest, where it says how.
  const bulk = store.bulkWrites?.bind(store) ?? ((work: () => Promise<void>) => work());
  await bulk(async () => {
    for (const [pass, share] of shares.entries()) {
      const base = { phoneNumberId: share.phoneNumberId, template: { name: template.name, language: template.language } };
      const row = { campaignId, senderId: share.senderId, category: template.category, nextAttemptAt: dueAt, share: share.recipients };
      const plan = personal
        ? {
            ...row,
            segment,
            intent: base,
            intentTextFor: perRecipient(base, shape, mapping, options, campaignId),
            ...plainIntent(base, shape, mapping, options),
          }
        : { ...row, segment, intent: sharedIntent(base, shape, mapping, options, campaignId) };
      // The segment is matched inside the store (matchesSegment's rules as SQL), a page at a time:
      // memory stays flat whatever the audience.
      for (let afterId = 0; ;) {
        const page = await store.insertSegmentOutbox(plan, afterId, PAGE, now);
        if (page.lastContactId === null) break;
        afterId = page.lastContactId;
        if (pass === 0) result.scanned += page.scanned;
        result.matched += page.matched;
        result.inserted += page.inserted;
      }
    }
  });
  // Starting again never lifts a pause: a breaker's or an operator's pause ends only with a resume.
  if (campaign.status !== 'paused') {
    await withEvents(store, now, (tx, emit) => changeCampaignStatus(tx, campaign, 'running', null, now, emit));
    signal.notifyQueued(dueAt);
  }
  return result;
}

type Base = { phoneNumberId: string; template: { name: string; language: string } };

/** The campaign's own number for everyone, or each pool number with its sender id and share. */
async function sharesToStart(
  store: Pick<SenderStore, 'getSender'>,
  campaign: Campaign,
  sender: { phoneNumberId: string },
): Promise<{ phoneNumberId: string; senderId: number; recipients: RecipientShare | undefined }[]> {
  const pool = readPool(campaign.senderPool, `campaign ${campaign.id}`);
  if (pool === null) return [{ phoneNumberId: sender.phoneNumberId, senderId: campaign.senderId, recipients: undefined }];
  const shares = sharesOf(pool);
  if (!shares.ok) throw new CampaignStartError(`campaign ${campaign.id}: its sender pool cannot be used: ${shares.problem}`);
  const out = [];
  for (const s of shares.shares) {
    const known = await store.getSender(s.phoneNumberId);
    if (known === null) throw new CampaignStartError(`campaign ${campaign.id}: pool number ${s.phoneNumberId} is not a known sender`);
    out.push({ phoneNumberId: s.phoneNumberId, senderId: known.id, recipients: s.recipients });
  }
  return out;
}

/** Values the same for everyone (constants, media) are rendered once; the rows are planned inside the store. */
function sharedIntent(base: Base, shape: TemplateShape, mapping: ParameterMapping, options: RenderOptions, id: number): JsonObject {
  if (shape.kind === 'unknown') return base satisfies OutboxIntent;
  const r = valueFreezer(shape.definition, shape.category, mapping, options)({ name: null, attributes: {} });
  if (!r.ok) throw new Error(`campaign ${id}: ${r.detail}`);
  const intent = Object.keys(r.values).length === 0 ? base : { ...base, template: { ...base.template, values: r.values } };
  return intent as unknown as JsonObject;
}

/** Each recipient's values, checked and frozen into its row; one Meta would refuse gets a row that says why. */
function perRecipient(base: Base, shape: TemplateShape, mapping: ParameterMapping, options: RenderOptions, id: number) {
  if (shape.kind === 'unknown')
    throw new CampaignStartError(`campaign ${id}: its template's placeholders are not known; run \`pacer template sync\``);
  const freezer = slotValueFreezer(shape.definition, shape.category, mapping, options);
  const write = templateIntentWriter(base, freezer.keys);
  return (contact: { name: string | null; attributes: JsonObject }): string => {
    const r = freezer.freeze(contact);
    if (r.ok) return write(r.values);
    const skipped: OutboxIntent = { ...base, parameterProblem: { reason: r.reason, detail: r.detail } };
    return JSON.stringify(skipped);
  };
}

/** What the store may write by itself for recipients whose values are plain (see `plainSlots`). */
function plainIntent(base: Base, shape: TemplateShape, mapping: ParameterMapping, options: RenderOptions) {
  const slots = shape.kind === 'known' ? plainSlots(shape.definition, shape.category, mapping, options) : null;
  if (slots === null) return {};
  return { plainIntent: { phoneNumberId: base.phoneNumberId, name: base.template.name, language: base.template.language, slots } };
}
