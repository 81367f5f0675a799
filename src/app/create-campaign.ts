import { CAP_SCHEDULE_PRESETS, DEFAULT_POLICY, type CapSchedulePreset, type FrequencyCap, type MarketingPath } from '../core/policy.js';
import { checkMapping, type MappingIssue } from '../core/template-parameters.js';
import type { ParameterMapping } from '../core/template-slot-values.js';
import type { SegmentDefinition } from '../core/segment.js';
import type { Millis } from '../core/time.js';
import type { Campaign, CampaignStore, JsonObject, SenderInput, SenderStore, Template, TemplateStore } from '../ports/store.js';
import { STANDARD_MPS } from '../core/sender-health.js';
import { poolNumbers, type SenderPool } from '../core/sender-pool.js';
import { lateDeliveryWarning } from './late-delivery-warning.js';
import { storedTiming, type CampaignTimingInput } from './message-timing.js';
import { sharesOf } from './sender-pool.js';
import { templateShape } from './template-mapping.js';

/**
 * What Pacer assumes of a sending number Meta has told it nothing about yet: Meta's default
 * throughput and nothing else; its webhooks fill in quality, limit tier and state as they come.
 */
export const NEW_SENDER_DEFAULTS = {
  qualityRating: null,
  throughputMps: STANDARD_MPS,
  messagingLimitTier: null,
  state: 'ok',
  stateReason: null,
  stateUntil: null,
} as const satisfies Omit<SenderInput, 'phoneNumberId' | 'displayNumber'>;

/** The 131049 retry schedule of a campaign that names none. */
export const DEFAULT_POLICY_PRESET: CapSchedulePreset = 'meta';

export interface NewCampaign {
  name: string;
  /** A registered template. */
  template: { name: string; language: string };
  /** The number it sends from, registered on first use: what the caller knows of it, the defaults above for the rest. */
  sender: { phoneNumberId: string } & Partial<Omit<SenderInput, 'phoneNumberId'>>;
  /** Whom it goes to. A marketing template's campaign needs marketing consent unless the segment names consent itself. */
  segment: SegmentDefinition;
  /** When sending starts (default: when the campaign is started). */
  scheduledAt?: Millis | null;
  /** When the campaign ends whatever is left: rows still held or not yet due are skipped. */
  endsAt?: Millis | null;
  policyPreset?: string;
  /** The campaign's own frequency cap (`max` 0 turns it off); absent or null: the configured cap. */
  frequencyCap?: FrequencyCap | null;
  /** Where each of the template's values comes from; it must cover every value the template needs. */
  parameters?: ParameterMapping;
  /**
   * Several numbers instead of `sender` alone: spread evenly, or by the recipient's country. The
   * campaign's own number is then the pool's first.
   */
  pool?: SenderPool;
  /** When its messages go in each recipient's local time, and how late they may go (checked by `campaignTimingInput`). */
  timing?: CampaignTimingInput;
}

/** Why a campaign was refused before anything was stored; each caller words it for its users. */
export type CreateCampaignProblem =
  'template_not_registered' | 'template_unavailable' | 'ends_before_start' | 'unknown_preset' | 'parameters' | 'sender_pool';

/** The 131049 retry schedules a campaign may name. */
export const POLICY_PRESETS = Object.keys(CAP_SCHEDULE_PRESETS) as CapSchedulePreset[];

export type CreateCampaignResult =
  /** `warnings`: sentences for the operator, e.g. that Meta may still deliver later than `--max-delay` allows. */
  | { ok: true; campaign: Campaign; warnings: string[] }
  | { ok: false; problem: Exclude<CreateCampaignProblem, 'parameters' | 'sender_pool'> }
  /** The pool cannot route every recipient to one number: what is wrong, naming the country or number. */
  | { ok: false; problem: 'sender_pool'; detail: string }
  /** The mapping does not fit the template: every issue, each naming its slot. */
  | { ok: false; problem: 'parameters'; issues: MappingIssue[] };

const UNSENDABLE = new Set(['rejected', 'disabled', 'deleted']);

/**
 * Creates a draft campaign from a registered template and a segment (`pacer campaign create`, the
 * demo). `marketingPath` (the policy's) decides which of Meta's time-to-live rules a warning names.
 */
export async function createCampaign(
  store: TemplateStore & SenderStore & CampaignStore,
  c: NewCampaign,
  now: Millis,
  marketingPath: MarketingPath = DEFAULT_POLICY.marketingPath,
): Promise<CreateCampaignResult> {
  if (c.policyPreset !== undefined && !(POLICY_PRESETS as string[]).includes(c.policyPreset))
    return { ok: false, problem: 'unknown_preset' };
  const template = await store.getTemplate(c.template.name, c.template.language);
  if (template === null) return { ok: false, problem: 'template_not_registered' };
  // Meta refuses these for good; paused and pending ones may be approved by the time it sends.
  if (UNSENDABLE.has(template.status)) return { ok: false, problem: 'template_unavailable' };
  const parameters = c.parameters ?? {};
  const issues = mappingIssues(template, parameters);
  if (issues.length > 0) return { ok: false, problem: 'parameters', issues };
  const scheduledAt = c.scheduledAt ?? null;
  const endsAt = c.endsAt ?? null;
  if (endsAt !== null && endsAt <= (scheduledAt ?? now)) return { ok: false, problem: 'ends_before_start' };
  if (c.pool !== undefined) {
    const shares = sharesOf(c.pool);
    if (!shares.ok) return { ok: false, problem: 'sender_pool', detail: shares.problem };
  }
  const numbers = c.pool === undefined ? [] : poolNumbers(c.pool);
  const sender = numbers[0] === undefined ? c.sender : { phoneNumberId: numbers[0] };
  const senderId = await senderIdFor(store, sender, now);
  for (const n of numbers.slice(1)) await senderIdFor(store, { phoneNumberId: n }, now);
  const segment =
    c.segment.consent === undefined && template.category === 'marketing' ? { ...c.segment, consent: ['marketing' as const] } : c.segment;
  const id = await store.createCampaign(
    {
      name: c.name,
      templateId: template.id,
      senderId,
      segment: JSON.parse(JSON.stringify(segment)) as JsonObject,
      scheduledAt,
      endsAt,
      frequencyCap: c.frequencyCap ?? null,
      policyPreset: c.policyPreset ?? DEFAULT_POLICY_PRESET,
      status: 'draft',
      parameters: Object.keys(parameters).length === 0 ? null : (JSON.parse(JSON.stringify(parameters)) as JsonObject),
      senderPool: c.pool === undefined ? null : (JSON.parse(JSON.stringify(c.pool)) as JsonObject),
      timing: c.timing === undefined ? null : (storedTiming(c.timing) as unknown as JsonObject),
    },
    now,
  );
  const campaign = await store.getCampaign(id);
  if (campaign === null) throw new Error(`campaign ${id} was not stored`);
  const late = lateDeliveryWarning(template, c.timing?.maxDelayMs, marketingPath);
  return { ok: true, campaign, warnings: late === null ? [] : [late] };
}

function mappingIssues(template: Template, parameters: ParameterMapping): MappingIssue[] {
  const shape = templateShape(template);
  if (shape.kind === 'known') return checkMapping(shape.definition, shape.category, parameters);
  if (Object.keys(parameters).length === 0) return [];
  return [
    {
      key: '(template)',
      message: `${template.name}/${template.language} was registered by hand, so Pacer does not know its placeholders: run \`pacer template sync\``,
    },
  ];
}

async function senderIdFor(store: SenderStore, sender: NewCampaign['sender'], now: Millis): Promise<number> {
  const known = await store.getSender(sender.phoneNumberId);
  if (known !== null) return known.id;
  const [id] = await store.upsertSenders([{ displayNumber: sender.phoneNumberId, ...NEW_SENDER_DEFAULTS, ...sender }], now);
  if (id === undefined) throw new Error(`could not record the sender number ${sender.phoneNumberId}`);
  return id;
}
