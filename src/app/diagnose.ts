import { diagnose, type Diagnosis } from '../core/diagnose.js';
import { DEFAULT_DIAGNOSE_THRESHOLDS, type DiagnoseThresholds, type DiagnosisFacts, type TemplateUsage } from '../core/diagnosis-facts.js';
import type { Policy } from '../core/policy.js';
import { DAY, HOUR, MINUTE, type Millis } from '../core/time.js';
import type {
  CampaignStore,
  DiagnosisScope,
  DiagnosisStore,
  SenderHistoryStore,
  SenderStore,
  Template,
  TemplateSends,
  TemplateStore,
} from '../ports/store.js';

/** A bad `since` or an unknown campaign: the caller's mistake, named so it can be fixed. */
export class DiagnoseInputError extends Error {
  override readonly name = 'DiagnoseInputError';
  constructor(
    readonly field: 'since' | 'campaign',
    message: string,
  ) {
    super(message);
  }
}

export interface DiagnoseRequest {
  campaignId: number | null;
  /** Start of the window; null means the campaign's creation, or 7 days for all traffic. */
  since: Millis | null;
  now: Millis;
}

export interface DiagnosisReport {
  facts: DiagnosisFacts;
  diagnosis: Diagnosis;
}

/** How far back the volume baseline reaches before the window. */
export const BASELINE_MS = 28 * DAY;
/** A message accepted this long ago and never delivered may be blocked (block proxy). */
export const SILENT_AFTER_MS = 12 * HOUR;
export const DEFAULT_SINCE_MS = 7 * DAY;
/** The newest sender changes a report lists, per sender. */
const SENDER_EVENTS = 20;

const UNITS: Record<string, number> = { m: MINUTE, h: HOUR, d: DAY, w: 7 * DAY };

/** `7d`, `36h`, `90m`, `2w` back from now, or an ISO 8601 time; anything else is refused with the reason. */
export function parseSince(text: string, now: Millis): Millis {
  const relative = /^(\d{1,5})([mhdw])$/.exec(text.trim());
  if (relative?.[1] !== undefined && relative[2] !== undefined) {
    const ms = Number(relative[1]) * (UNITS[relative[2]] ?? DAY);
    if (ms <= 0) throw new DiagnoseInputError('since', `since must be a positive duration, got "${text}"`);
    return now - ms;
  }
  if (/^\d{4}-\d{2}-\d{2}/.test(text.trim())) {
    const at = Date.parse(text.trim());
    if (Number.isNaN(at)) throw new DiagnoseInputError('since', `since "${text}" is not a valid ISO 8601 time`);
    if (at >= now) throw new DiagnoseInputError('since', `since "${text}" is not in the past`);
    return at;
  }
  throw new DiagnoseInputError('since', `since must be a duration like 7d, 36h, 90m, 2w or an ISO 8601 time, got "${text}"`);
}

/**
 * Loads the facts of one scope (a campaign, or all sends since a time) and asks the core where
 * the failures come from: recipients, the campaign, or the account.
 */
export async function runDiagnosis(
  store: DiagnosisStore & CampaignStore & TemplateStore & SenderStore & SenderHistoryStore,
  policy: Policy,
  request: DiagnoseRequest,
  thresholds: DiagnoseThresholds = DEFAULT_DIAGNOSE_THRESHOLDS,
): Promise<DiagnosisReport> {
  const campaign = request.campaignId === null ? null : await store.getCampaign(request.campaignId);
  if (request.campaignId !== null && campaign === null)
    throw new DiagnoseInputError('campaign', `campaign ${request.campaignId} does not exist`);
  const until = request.now + 1; // the window includes sends made at this very moment
  const since = request.since ?? campaign?.createdAt ?? request.now - DEFAULT_SINCE_MS;
  const scope: DiagnosisScope = {
    campaignId: campaign?.id ?? null,
    since,
    until,
    capCodes: policy.capCodes,
    repeatedFailures: thresholds.repeatedFailures,
    silentBefore: until - SILENT_AFTER_MS,
  };
  const [sends, templateSends, campaignSends, audience, attempts, baselineAttempts, templates, senders, campaigns, numbers] =
    await Promise.all([
      store.diagnosisSends(scope),
      store.diagnosisTemplates(scope),
      // One campaign is one segment: comparing segments needs the whole traffic.
      campaign === null ? store.diagnosisCampaigns(scope) : Promise.resolve([]),
      store.diagnosisAudience(scope),
      store.sendAttempts(since, until),
      store.sendAttempts(since - BASELINE_MS, since),
      store.listTemplates(),
      store.listSenders(),
      store.listCampaigns({}),
      store.diagnosisNumbers(scope),
    ]);
  const names = new Map(campaigns.map((c) => [c.id, c.name]));
  const inScope = senders.filter((s) => campaign === null || s.id === campaign.senderId);
  const history = await Promise.all(
    inScope.map(async (s) =>
      (await store.senderChanges(s.id, since, SENDER_EVENTS)).map((c) => ({
        phoneNumberId: s.phoneNumberId,
        at: c.at,
        source: c.source,
        quality: c.qualityRating,
        state: c.state,
        reason: c.stateReason,
      })),
    ),
  );
  const byId = new Map(templates.map((t) => [t.id, t]));
  const usage = templateSends.map((s) => templateUsage(s, s.templateId === null ? undefined : byId.get(s.templateId)));
  const campaignTemplate = campaign === null ? undefined : byId.get(campaign.templateId);
  const facts: DiagnosisFacts = {
    since,
    until,
    campaign:
      campaign === null
        ? null
        : {
            id: campaign.id,
            name: campaign.name,
            template: campaignTemplate ? labelOf(campaignTemplate) : `template #${campaign.templateId}`,
          },
    sends: { messages: sends.messages, recipients: sends.recipients, attempts: sends.attempts },
    failures: sends.failures,
    failing: sends.failing,
    templates: usage,
    campaigns: campaignSends.map(({ campaignId, ...counts }) => ({
      ...counts,
      campaignId,
      label: `campaign #${campaignId} ${names.get(campaignId) ?? ''}`.trim(),
    })),
    consent: audience.consent,
    engagement: {
      delivered: sum(usage, 'delivered'),
      read: sum(usage, 'read'),
      silent: sum(usage, 'silent'),
      replied: audience.replied,
      stopped: audience.stopped,
      stopKinds: audience.stopKinds,
    },
    volume: { attempts, days: (until - since) / DAY, baselineAttempts, baselineDays: BASELINE_MS / DAY },
    senders: inScope.map((s) => ({ phoneNumberId: s.phoneNumberId, quality: s.qualityRating, state: s.state, reason: s.stateReason })),
    numbers,
    senderEvents: history.flat().sort((a, b) => a.at - b.at),
    pauses: campaigns
      .filter((c) => c.status === 'paused' && c.pauseReason !== null && c.updatedAt >= since)
      .map((c) => ({ campaignId: c.id, name: c.name, reason: c.pauseReason ?? '' })),
  };
  return { facts, diagnosis: diagnose(facts, policy.capCodes, thresholds) };
}

function labelOf(t: Template): string {
  return `${t.name} (${t.language})`;
}

function templateUsage(s: TemplateSends, t: Template | undefined): TemplateUsage {
  return {
    label: t ? labelOf(t) : s.templateId === null ? `one-off ${s.category} messages` : `template #${s.templateId}`,
    templateId: s.templateId,
    category: t?.category ?? s.category,
    status: t?.status ?? null,
    quality: t?.quality ?? null,
    messages: s.messages,
    recipients: s.recipients,
    delivered: s.delivered,
    read: s.read,
    failed: s.failed,
    capped: s.capped,
    stopped: s.stopped,
    silent: s.silent,
  };
}

function sum(usage: readonly TemplateUsage[], key: 'delivered' | 'read' | 'silent'): number {
  return usage.reduce((n, u) => n + u[key], 0);
}
