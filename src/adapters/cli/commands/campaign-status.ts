import type { CliCommand, JsonOption } from '../cli-command.js';
import { CliFailure } from '../exit-codes.js';
import { parseCampaignId } from '../parse-campaign-id.js';
import { campaignStatus } from '../render-campaign-status.js';

export const campaignStatusCommand: CliCommand = {
  path: ['campaign', 'status'],
  define: (c) => c.description('A campaign with its counters and pause reason').argument('<id>').option('--json', 'JSON output'),
  run:
    ({ out, withStore, policy, now }) =>
    async (value: string, opts: JsonOption) => {
      await withStore(async (store) => {
        const c = await store.getCampaign(parseCampaignId(value));
        if (c === null) throw new CliFailure(`campaign ${value} does not exist`);
        const s = await campaignStatus(store, c, now(), policy());
        out(opts.json ? JSON.stringify(s.json) : s.text);
      });
    },
};

export const campaignListCommand: CliCommand = {
  path: ['campaign', 'list'],
  define: (c) => c.description('All campaigns').option('--json', 'JSON output'),
  run:
    ({ out, withStore, policy, now }) =>
    async (opts: JsonOption) => {
      await withStore(async (store) => {
        const all = await store.listCampaigns({});
        const rows = await Promise.all(all.map((c) => campaignStatus(store, c, now(), policy())));
        out(opts.json ? JSON.stringify(rows.map((r) => r.json)) : rows.map((r) => r.text).join('\n') || 'No campaigns.');
      });
    },
};
