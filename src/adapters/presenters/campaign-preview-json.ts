import type { CampaignPreview } from '../../app/preview-campaign.js';
import { mask } from './mask.js';

/** A campaign preview as `pacer campaign preview --json` and the REST API give it: the same fields, numbers masked. */
export function campaignPreviewJson(p: CampaignPreview): CampaignPreview {
  return { ...p, samples: p.samples.map((s) => ({ ...s, to: mask(s.to) })) };
}
