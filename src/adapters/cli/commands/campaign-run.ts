import { NO_DISPATCHER_HERE } from '../../../app/work-signal.js';
import { campaignAction, CampaignActionError } from '../../../app/campaign-actions.js';
import { CampaignStartError, startCampaignById } from '../../../app/start-campaign.js';
import type { CliCommand, JsonOption } from '../cli-command.js';
import { CliFailure } from '../exit-codes.js';
import { parseCampaignId } from '../parse-campaign-id.js';
import { campaignStatus } from '../render-campaign-status.js';

export const campaignStartCommand: CliCommand = {
  path: ['campaign', 'start'],
  define: (c) =>
    c
      .description('Expand the segment into the outbox and start sending (starting twice adds nothing)')
      .argument('<id>')
      .option('--json', 'JSON output'),
  run:
    ({ out, withStore, policy, now }) =>
    async (value: string, opts: JsonOption) => {
      const id = parseCampaignId(value);
      await withStore(async (store) => {
        let started;
        try {
          started = await startCampaignById(store, id, now(), NO_DISPATCHER_HERE, { stopButtons: policy().stopButtons });
        } catch (error) {
          if (error instanceof CampaignStartError) throw new CliFailure(error.message);
          throw error;
        }
        const r = { id, ...started };
        out(
          opts.json
            ? JSON.stringify(r)
            : `Campaign #${r.id} running: ${r.matched} of ${r.scanned} contacts match, ${r.inserted} new outbox row(s).`,
        );
      });
    },
};

/** `pacer campaign pause | resume | cancel`: the campaign's status after the action. */
export const campaignActionCommands: readonly CliCommand[] = (['pause', 'resume', 'cancel'] as const).map((action) => ({
  path: ['campaign', action],
  define: (c) =>
    c
      .description(`${action[0]?.toUpperCase()}${action.slice(1)} a campaign`)
      .argument('<id>')
      .option('--json', 'JSON output'),
  run:
    ({ out, withStore, policy, now }) =>
    async (value: string, opts: JsonOption) => {
      const id = parseCampaignId(value);
      await withStore(async (store) => {
        let campaign;
        try {
          campaign = await campaignAction(store, id, action, now(), NO_DISPATCHER_HERE);
        } catch (error) {
          if (error instanceof CampaignActionError) throw new CliFailure(error.message);
          throw error;
        }
        const s = await campaignStatus(store, campaign, now(), policy());
        out(opts.json ? JSON.stringify(s.json) : s.text);
      });
    },
}));
