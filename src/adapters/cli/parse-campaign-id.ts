import { CliFailure, EXIT } from './exit-codes.js';

export function parseCampaignId(value: string): number {
  const id = Number(value);
  if (!Number.isInteger(id) || id < 1) throw new CliFailure(`"${value}" is not a campaign id`, EXIT.usage);
  return id;
}
