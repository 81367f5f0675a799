import { MAX_PREVIEW_SAMPLE, previewCampaign, type PreviewCampaignOptions } from '../../../app/preview-campaign.js';
import { campaignPreviewJson } from '../../presenters/campaign-preview-json.js';
import type { CliCommand, JsonOption } from '../cli-command.js';
import { findContactByInput } from '../contact-command.js';
import { CliFailure, EXIT } from '../exit-codes.js';
import { parseCampaignId } from '../parse-campaign-id.js';
import { renderCampaignPreview } from '../render-campaign-preview.js';

interface PreviewOptions extends JsonOption {
  contact?: string;
  sample: string;
}

function parseSample(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || n > MAX_PREVIEW_SAMPLE)
    throw new CliFailure(`--sample must be a whole number from 0 to ${MAX_PREVIEW_SAMPLE}, got "${value}"`, EXIT.usage);
  return n;
}

/** `pacer campaign preview`: the message as recipients would read it, and who a start would skip for a missing value. */
export const campaignPreviewCommand: CliCommand = {
  path: ['campaign', 'preview'],
  define: (c) =>
    c
      .description('The message as recipients would read it, and how many a start would skip for which missing value')
      .argument('<id>')
      .option('--contact <phone>', 'preview this contact (phone, wa_id or business-scoped id), in the segment or not')
      .option('--sample <n>', `recipients to show, first by contact id (0-${MAX_PREVIEW_SAMPLE})`, '3')
      .option('--json', 'JSON output'),
  run:
    ({ out, withStore, policy, now }) =>
    async (id: string, opts: PreviewOptions) => {
      const campaignId = parseCampaignId(id);
      const sample = parseSample(opts.sample);
      await withStore(async (store) => {
        if ((await store.getCampaign(campaignId)) === null) throw new CliFailure(`campaign ${campaignId} does not exist`);
        const options: PreviewCampaignOptions = { sample, stopButtons: policy().stopButtons };
        if (opts.contact !== undefined) options.contact = { id: (await findContactByInput(store, opts.contact)).id };
        const r = await previewCampaign(store, campaignId, now(), options);
        if (!r.ok)
          throw new CliFailure(
            r.problem === 'campaign_not_found' ? `campaign ${campaignId} does not exist` : 'that contact no longer exists',
          );
        out(opts.json ? JSON.stringify(campaignPreviewJson(r.preview)) : renderCampaignPreview(r.preview));
      });
    },
};
