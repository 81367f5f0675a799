import { iso } from '../../../core/time.js';
import type { CampaignReportStore, CampaignStore } from '../../../ports/store.js';
import type { CliCommand, JsonOption } from '../cli-command.js';
import { CliFailure, EXIT } from '../exit-codes.js';
import { parseCampaignId } from '../parse-campaign-id.js';

interface RecipientsQuery {
  campaignId: number;
  kind: 'retry' | 'held';
  afterId: number;
  limit: number;
}

export const campaignRecipientsCommand: CliCommand = {
  path: ['campaign', 'recipients'],
  define: (c) =>
    c
      .description('Recipients still waiting: pending retries (with the next attempt) or held for a window')
      .argument('<id>')
      .requiredOption('--waiting <kind>', 'retry | held')
      .option('--after <rowId>', 'page on from this outbox row id', '0')
      .option('--limit <n>', 'rows per page (1-500)', '50')
      .option('--json', 'JSON output'),
  run:
    ({ out, withStore }) =>
    async (id: string, opts: { waiting: string; after: string; limit: string } & JsonOption) => {
      const query = parseRecipientsQuery(id, opts);
      await withStore(async (store) => {
        const page = await recipientsPage(store, query);
        out(opts.json ? JSON.stringify(page.json) : page.text);
      });
    },
};

function parseRecipientsQuery(id: string, o: { waiting: string; after: string; limit: string }): RecipientsQuery {
  if (o.waiting !== 'retry' && o.waiting !== 'held')
    throw new CliFailure(`--waiting must be retry or held, got "${o.waiting}"`, EXIT.usage);
  const afterId = Number(o.after);
  if (!Number.isInteger(afterId) || afterId < 0)
    throw new CliFailure(`--after must be an outbox row id (0 or more), got "${o.after}"`, EXIT.usage);
  const limit = Number(o.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 500)
    throw new CliFailure(`--limit must be a whole number from 1 to 500, got "${o.limit}"`, EXIT.usage);
  return { campaignId: parseCampaignId(id), kind: o.waiting, afterId, limit };
}

/** One page of pending retries or held recipients (contact ids, never phone numbers). */
async function recipientsPage(store: CampaignStore & CampaignReportStore, q: RecipientsQuery): Promise<{ text: string; json: unknown }> {
  if ((await store.getCampaign(q.campaignId)) === null) throw new CliFailure(`campaign ${q.campaignId} does not exist`);
  const rows = await store.listOutboxRows({ campaignId: q.campaignId, kind: q.kind, afterId: q.afterId, limit: q.limit });
  const items = rows.map((r) => ({
    ...r,
    nextAttemptAt: r.nextAttemptAt === null ? null : iso(r.nextAttemptAt),
    updatedAt: iso(r.updatedAt),
  }));
  const next = rows.length === q.limit ? (rows.at(-1)?.id ?? null) : null;
  const what = q.kind === 'retry' ? 'pending retries' : 'held for a window';
  const lines = rows.map(
    (r) =>
      `  row ${r.id} · contact ${r.contactId}${r.contactName ? ` (${r.contactName})` : ''} · ${r.attempts} attempt(s)${r.lastErrorCode === null ? '' : ` · last error ${r.lastErrorCode}`}${
        q.kind === 'retry'
          ? ` · next attempt ${r.nextAttemptAt === null ? '—' : iso(r.nextAttemptAt)}`
          : ' · goes when the contact writes in'
      }`,
  );
  const text = [
    `Campaign #${q.campaignId}, ${what}: ${rows.length === 0 ? 'none' : `${rows.length} shown`}`,
    ...lines,
    ...(next === null ? [] : [`  more: --after ${next}`]),
  ].join('\n');
  return { text, json: { items, nextAfter: next } };
}
