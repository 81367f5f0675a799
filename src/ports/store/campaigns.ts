import type { FrequencyCap } from '../../core/policy.js';
import type { Millis } from '../../core/time.js';
import type { JsonObject } from '../json.js';

export type CampaignStatus = 'draft' | 'scheduled' | 'running' | 'paused' | 'completed' | 'cancelled';
export interface CampaignInput {
  name: string;
  templateId: number;
  senderId: number;
  segment: JsonObject;
  scheduledAt: Millis | null;
  /** When the campaign ends whatever is left (held or not yet due rows); null runs until done. */
  endsAt?: Millis | null;
  /** This campaign's own frequency cap (`max` 0 turns it off); null or absent: the configured cap applies. */
  frequencyCap?: FrequencyCap | null;
  policyPreset: string;
  status: CampaignStatus;
  /** Where each template value comes from (a `ParameterMapping`); null or absent when the template takes none. */
  parameters?: JsonObject | null;
  /** The numbers besides `senderId` it sends from (a `SenderPool`); null or absent: `senderId`'s alone. */
  senderPool?: JsonObject | null;
  /**
   * When its messages go in each recipient's local time, and how late they may go (a
   * `CampaignTiming`); null or absent: the installation's quiet hours.
   */
  timing?: JsonObject | null;
}
export interface Campaign extends CampaignInput {
  id: number;
  pauseReason: string | null;
  createdAt: Millis;
  updatedAt: Millis;
}

/** Campaigns and their status; their rows are in the outbox (`CampaignOutboxStore`). */
export interface CampaignStore {
  createCampaign(campaign: CampaignInput, now: Millis): Promise<number>;
  getCampaign(id: number): Promise<Campaign | null>;
  listCampaigns(filter: { status?: CampaignStatus }): Promise<Campaign[]>;
  setCampaignStatus(id: number, status: CampaignStatus, pauseReason: string | null, now: Millis): Promise<boolean>;
  /** Sets (or clears, with null) when a draft starts sending; false when the campaign is not a draft (or does not exist). */
  setDraftSchedule(id: number, scheduledAt: Millis | null, now: Millis): Promise<boolean>;
}
