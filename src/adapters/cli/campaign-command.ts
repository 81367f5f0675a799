import { campaignAction, CampaignActionError } from '../../app/campaign-actions.js';
import { campaignPace } from '../../app/campaign-pace.js';
import { paceSentence } from '../../core/messaging-limit.js';
import type { Policy } from '../../core/policy.js';
import { recipientOutcomes } from '../../core/recipient-outcomes.js';
import { parseSegment } from '../../app/segment-schema.js';
import { startCampaign } from '../../app/start-campaign.js';
import { isCategory } from '../../core/category.js';
import { iso } from '../../core/time.js';
import type { Campaign, CampaignOutboxStore, CampaignReportStore, CampaignStore, ConversationStore, JsonObject, SenderStore, TemplateStore } from '../../ports/store.js';
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
export async function createCampaignCommand(store: TemplateStore & SenderStore & CampaignStore, o: CreateOptions, sender: { phoneNumberId: string }, now: number): Promise<Campaign> {
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

export async function startCampaignCommand(store: CampaignStore & SenderStore & TemplateStore & CampaignOutboxStore, id: number, now: number): Promise<string> {
  const campaign = await store.getCampaign(id);
  if (campaign === null) throw new CliFailure(`campaign ${id} does not exist`);
  const sender = await store.getSenderById(campaign.senderId);
  if (sender === null) throw new CliFailure(`campaign ${id}: its sender number is missing`);
  const r = await startCampaign(store, id, { phoneNumberId: sender.phoneNumberId }, now);
  return JSON.stringify({ id, ...r });
}

export async function actionCommand(store: CampaignStore & CampaignOutboxStore, id: number, action: 'pause' | 'resume' | 'cancel', now: number): Promise<Campaign> {
  try {
    return await campaignAction(store, id, action, now);
  } catch (error) {
    if (error instanceof CampaignActionError) throw new CliFailure(error.message);
    throw error;
  }
}

export async function statusText(store: CampaignReportStore & SenderStore & ConversationStore, c: Campaign, now: number, policy: Pick<Policy, 'capCodes'>): Promise<{ text: string; json: unknown }> {
  const counters = await store.campaignCounters(c.id);
  const pace = await campaignPace(store, c, counters.queued + counters.held, now);
  const outcomes = recipientOutcomes(await store.outboxBreakdown(c.id), await store.skipReasons(c.id), policy.capCodes);
  const json = { ...c, scheduledAt: c.scheduledAt === null ? null : iso(c.scheduledAt), createdAt: iso(c.createdAt), updatedAt: iso(c.updatedAt), counters, pace, outcomes };
  const lines = outcomes.map((g) => `    ${String(g.count).padStart(7)}  ${g.label}${g.codes.length > 0 ? ` (${g.codes.map((x) => `${x.code} × ${x.count}`).join(', ')})` : ''}`);
  const text = [`#${c.id} ${c.name} — ${c.status}${c.pauseReason ? ` (${c.pauseReason})` : ''}`, `  ${counters.total} recipient(s)${lines.length === 0 ? ', none yet' : ':'}`, ...lines, `  ${paceSentence(pace)}`].join('\n');
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

export interface RecipientsQuery {
  campaignId: number;
  kind: 'retry' | 'held';
  afterId: number;
  limit: number;
}

export function parseRecipientsQuery(id: string, o: { waiting: string; after: string; limit: string }): RecipientsQuery {
  if (o.waiting !== 'retry' && o.waiting !== 'held') throw new CliFailure(`--waiting must be retry or held, got "${o.waiting}"`, EXIT.usage);
  const afterId = Number(o.after);
  if (!Number.isInteger(afterId) || afterId < 0) throw new CliFailure(`--after must be an outbox row id (0 or more), got "${o.after}"`, EXIT.usage);
  const limit = Number(o.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 500) throw new CliFailure(`--limit must be a whole number from 1 to 500, got "${o.limit}"`, EXIT.usage);
  return { campaignId: parseId(id), kind: o.waiting, afterId, limit };
}

/** `pacer campaign recipients`: one page of pending retries or held recipients (contact ids, never phone numbers). */
export async function recipientsPage(store: CampaignStore & CampaignReportStore, q: RecipientsQuery): Promise<{ text: string; json: unknown }> {
  if ((await store.getCampaign(q.campaignId)) === null) throw new CliFailure(`campaign ${q.campaignId} does not exist`);
  const rows = await store.listOutboxRows({ campaignId: q.campaignId, kind: q.kind, afterId: q.afterId, limit: q.limit });
  const items = rows.map((r) => ({ ...r, nextAttemptAt: r.nextAttemptAt === null ? null : iso(r.nextAttemptAt), updatedAt: iso(r.updatedAt) }));
  const next = rows.length === q.limit ? rows.at(-1)?.id ?? null : null;
  const what = q.kind === 'retry' ? 'pending retries' : 'held for a window';
  const lines = rows.map((r) => `  row ${r.id} · contact ${r.contactId}${r.contactName ? ` (${r.contactName})` : ''} · ${r.attempts} attempt(s)${r.lastErrorCode === null ? '' : ` · last error ${r.lastErrorCode}`}${
    q.kind === 'retry' ? ` · next attempt ${r.nextAttemptAt === null ? '—' : iso(r.nextAttemptAt)}` : ' · goes when the contact writes in'}`);
  const text = [`Campaign #${q.campaignId}, ${what}: ${rows.length === 0 ? 'none' : `${rows.length} shown`}`, ...lines, ...(next === null ? [] : [`  more: --after ${next}`])].join('\n');
  return { text, json: { items, nextAfter: next } };
}
