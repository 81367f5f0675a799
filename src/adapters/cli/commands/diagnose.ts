import { DiagnoseInputError, parseSince, runDiagnosis, type DiagnosisReport } from '../../../app/diagnose.js';
import { diagnosisJson } from '../../presenters/diagnosis-json.js';
import type { Policy } from '../../../core/policy.js';
import { iso } from '../../../core/time.js';
import type { CampaignStore, DiagnosisStore, SenderHistoryStore, SenderStore, TemplateStore } from '../../../ports/store.js';
import type { CliCommand, JsonOption } from '../cli-command.js';
import { CliFailure, EXIT } from '../exit-codes.js';

interface DiagnoseOptions {
  campaign?: string;
  since?: string;
}

export const diagnoseCommand: CliCommand = {
  path: ['diagnose'],
  define: (c) =>
    c
      .description('Where failures such as 131049 come from: recipients, one campaign, or the account, with the evidence and what to do')
      .option('--campaign <id>', 'diagnose one campaign (default: all sends in the window)')
      .option('--since <when>', 'start of the window: 7d, 36h, 90m, 2w or an ISO time (default: the campaign start, or 7d)')
      .option('--json', 'JSON: verdict, subject, summary, action, evidence and the facts'),
  run:
    ({ out, withStore, policy, now }) =>
    async (opts: DiagnoseOptions & JsonOption) => {
      await withStore(async (store) => {
        const report = await diagnose(store, policy(), opts, now());
        out(opts.json ? JSON.stringify(diagnosisJson(report)) : renderDiagnosis(report));
      });
    },
};

/** Bad options are usage errors (2); an unknown campaign is a failure (1). */
async function diagnose(
  store: DiagnosisStore & CampaignStore & TemplateStore & SenderStore & SenderHistoryStore,
  policy: Policy,
  o: DiagnoseOptions,
  now: number,
): Promise<DiagnosisReport> {
  let campaignId: number | null = null;
  if (o.campaign !== undefined) {
    if (!/^\d{1,15}$/.test(o.campaign) || Number(o.campaign) < 1)
      throw new CliFailure(`--campaign must be a campaign id (a positive number), got "${o.campaign}"`, EXIT.usage);
    campaignId = Number(o.campaign);
  }
  try {
    const since = o.since === undefined ? null : parseSince(o.since, now);
    return await runDiagnosis(store, policy, { campaignId, since, now });
  } catch (error) {
    if (!(error instanceof DiagnoseInputError)) throw error;
    if (error.field === 'since') throw new CliFailure(`--${error.message}`, EXIT.usage);
    throw new CliFailure(`${error.message}: see pacer campaign list`, EXIT.failure);
  }
}

const VERDICT_TITLE = {
  recipient_level: 'recipient level',
  campaign_level: 'campaign level',
  account_level: 'account level',
  insufficient_data: 'insufficient data',
} as const;

/** The human report: verdict, why, what to do, then the whole investigation by topic. */
function renderDiagnosis(report: DiagnosisReport): string {
  const { facts, diagnosis: d } = report;
  const scope =
    facts.campaign === null ? 'all sends' : `campaign #${facts.campaign.id} ${facts.campaign.name} (${facts.campaign.template})`;
  const lines = [
    `Verdict: ${VERDICT_TITLE[d.verdict]}${d.subject === null ? '' : ` — ${d.subject}`}`,
    d.summary,
    `Scope: ${scope}, ${iso(facts.since)} to ${iso(facts.until)}`,
    '',
    'Why:',
    ...d.evidence.filter((e) => e.decisive).map((e) => `  • ${e.text}`),
    '',
    `What to do: ${d.action}`,
    '',
    'Investigation:',
  ];
  for (const e of d.evidence.filter((x) => !x.decisive)) lines.push(`  ${e.topic.padEnd(11)} ${e.text}`);
  return lines.join('\n');
}
