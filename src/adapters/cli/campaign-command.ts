import { campaignAction, CampaignActionError } from '../../app/campaign-actions.js';
import { campaignPace } from '../../app/campaign-pace.js';
import { paceSentence } from '../../core/messaging-limit.js';
import { parseSegment } from '../../app/segment-schema.js';
import { startCampaign } from '../../app/start-campaign.js';
import { isCategory } from '../../core/category.js';
import { iso } from '../../core/time.js';
import type { Campaign, JsonObject, Store } from '../../ports/store.js';
import { CliFailure, EXIT } from './exit-codes.js';

export interface CreateOptions {
  name: string;
  template: string;
  language: string;
  segment?: string;
  at?: string;
  ends?: string;
  preset: string;
}

/** `pacer campaign create`: the template must be registered; the sender is the configured number. */
export async function createCampaignCommand(store: Store, o: CreateOptions, sender: { phoneNumberId: string }, now: number): Promise<Campaign> {
  const template = await store.getTemplate(o.template, o.language);
  if (template === null) throw new CliFailure(`Template ${o.template} (${o.language}) is not registered: pacer template add ${o.template} --language ${o.language} --category marketing`, EXIT.usage);
  let segmentJson: unknown = {};
  if (o.segment !== undefined) {
    try {
      segmentJson = JSON.parse(o.segment);
    } catch {
      throw new CliFailure('--segment must be JSON, e.g. \'{"tagsAll":["vip"],"consent":["marketing"],"exclude":["stopped"]}\'', EXIT.usage);
    }
  }
  let segment;
  try {
    segment = parseSegment(segmentJson, '--segment');
  } catch (error) {
    throw new CliFailure((error as Error).message, EXIT.usage);
  }
  const scheduledAt = o.at === undefined ? null : Date.parse(o.at);
  if (scheduledAt !== null && Number.isNaN(scheduledAt)) throw new CliFailure('--at must be an ISO time, e.g. 2026-12-01T09:00:00Z', EXIT.usage);
  const endsAt = o.ends === undefined ? null : Date.parse(o.ends);
  if (endsAt !== null && (Number.isNaN(endsAt) || endsAt <= (scheduledAt ?? now))) throw new CliFailure('--ends must be an ISO time after the start, e.g. 2026-12-08T09:00:00Z', EXIT.usage);
  const senderRow = (await store.getSender(sender.phoneNumberId)) ?? null;
  const senderId = senderRow?.id ?? (await store.upsertSenders([{ phoneNumberId: sender.phoneNumberId, displayNumber: sender.phoneNumberId, qualityRating: null, throughputMps: 80, messagingLimitTier: null, state: 'ok', stateReason: null, stateUntil: null }], now))[0];
  if (senderId === undefined) throw new CliFailure('could not record the sender number');
  // Marketing campaigns need marketing consent unless the segment says otherwise explicitly.
  const withConsent = segment.consent === undefined && template.category === 'marketing' ? { ...segment, consent: ['marketing' as const] } : segment;
  const id = await store.createCampaign({ name: o.name, templateId: template.id, senderId, segment: JSON.parse(JSON.stringify(withConsent)) as JsonObject, scheduledAt, endsAt, policyPreset: o.preset, status: 'draft' }, now);
  const created = await store.getCampaign(id);
  if (created === null) throw new CliFailure('campaign was not stored');
  return created;
}

export async function startCampaignCommand(store: Store, id: number, now: number): Promise<string> {
  const campaign = await store.getCampaign(id);
  if (campaign === null) throw new CliFailure(`campaign ${id} does not exist`);
  const sender = await store.getSenderById(campaign.senderId);
  if (sender === null) throw new CliFailure(`campaign ${id}: its sender number is missing`);
  const r = await startCampaign(store, id, { phoneNumberId: sender.phoneNumberId }, now);
  return JSON.stringify({ id, ...r });
}

export async function actionCommand(store: Store, id: number, action: 'pause' | 'resume' | 'cancel', now: number): Promise<Campaign> {
  try {
    return await campaignAction(store, id, action, now);
  } catch (error) {
    if (error instanceof CampaignActionError) throw new CliFailure(error.message);
    throw error;
  }
}

export async function statusText(store: Store, c: Campaign, now: number): Promise<{ text: string; json: unknown }> {
  const counters = await store.campaignCounters(c.id);
  const pace = await campaignPace(store, c, counters, now);
  const json = { ...c, scheduledAt: c.scheduledAt === null ? null : iso(c.scheduledAt), createdAt: iso(c.createdAt), updatedAt: iso(c.updatedAt), counters, pace };
  const nonZero = Object.entries(counters).filter(([k, v]) => v > 0 && k !== 'total').map(([k, v]) => `${k} ${v}`).join(', ');
  const text = `#${c.id} ${c.name} — ${c.status}${c.pauseReason ? ` (${c.pauseReason})` : ''}\n  ${counters.total} recipient(s): ${nonZero || 'none yet'}\n  ${paceSentence(pace)}`;
  return { text, json };
}

export function parseId(value: string): number {
  const id = Number(value);
  if (!Number.isInteger(id) || id < 1) throw new CliFailure(`"${value}" is not a campaign id`, EXIT.usage);
  return id;
}

export function parseCategory(value: string): 'marketing' | 'utility' | 'authentication' {
  if (!isCategory(value) || value === 'service') throw new CliFailure('--category must be marketing, utility or authentication', EXIT.usage);
  return value;
}
