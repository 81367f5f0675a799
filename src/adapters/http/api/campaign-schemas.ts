import { z } from 'zod';
import { timingAsInput } from '../../../app/message-timing.js';
import { readPool } from '../../../app/sender-pool.js';
import { parameterMappingSchema, readMapping } from '../../../app/template-mapping.js';
import type { SenderPool } from '../../../core/sender-pool.js';
import { iso } from '../../../core/time.js';
import type { Campaign, CampaignCounters } from '../../../ports/store.js';
import { isoOrNull, isoTime } from './schemas.js';

/** A campaign's shape in answers, shared by its routes. */

export const CAMPAIGN_STATUSES = ['draft', 'scheduled', 'running', 'paused', 'completed', 'cancelled'] as const;

export const frequencyCapSchema = z.object({
  max: z.number().int().describe('marketing messages per contact at most'),
  windowMs: z.number().int().describe('in this many milliseconds'),
});

const timingSchema = z
  .object({
    window: z
      .object({ from: z.string(), to: z.string(), days: z.array(z.string()).optional() })
      .optional()
      .describe("send only between these hours of each recipient's local time (HH:MM), on these weekdays (all when absent)"),
    timeZone: z.string().optional().describe('the zone of recipients whose zone is not known'),
    maxDelayMs: z.number().int().optional().describe('a message that cannot go within this long of the start ends expired'),
  })
  .describe("the campaign's own timing, as POST /campaigns takes it; null: the installation's quiet hours");

const senderPoolJson = z
  .union([
    z.object({ by: z.literal('spread'), numbers: z.array(z.string()) }),
    z.object({ by: z.literal('country'), countries: z.record(z.string(), z.string()), otherwise: z.string().nullable() }),
  ])
  .describe('the numbers it sends from besides its own: spread evenly, or by the recipient’s country');

export const campaignSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  status: z.enum(CAMPAIGN_STATUSES),
  pauseReason: z.string().nullable().describe('why it is paused: an operator, or a breaker naming its cause'),
  templateId: z.number().int(),
  senderId: z.number().int(),
  senderPool: senderPoolJson.nullable().describe('null: it sends from its own number (senderId) alone'),
  segment: z.record(z.string(), z.unknown()),
  scheduledAt: isoTime.nullable().describe('when its rows fall due once started; null: when it is started'),
  endsAt: isoTime.nullable().describe('when whatever is left (held or not yet due) is skipped; null: it runs until done'),
  policyPreset: z.string(),
  frequencyCap: frequencyCapSchema
    .nullable()
    .describe("the campaign's own frequency cap (max 0: none); null: the configured PACER_FREQUENCY_CAP"),
  parameters: parameterMappingSchema.nullable().describe('where each template value comes from; null when the template takes none'),
  timing: timingSchema.nullable(),
  createdAt: isoTime,
  updatedAt: isoTime,
});

export const countersSchema = z.record(z.string(), z.number().int()).describe('outbox rows per status and per outcome, and the total');

export const campaignWithCounters = campaignSchema.extend({ counters: countersSchema });

export function campaignJson(c: Campaign): z.output<typeof campaignSchema> {
  return {
    id: c.id,
    name: c.name,
    status: c.status,
    pauseReason: c.pauseReason,
    templateId: c.templateId,
    senderId: c.senderId,
    senderPool: poolJson(readPool(c.senderPool, `campaign ${c.id}`)),
    segment: c.segment,
    scheduledAt: isoOrNull(c.scheduledAt),
    endsAt: isoOrNull(c.endsAt ?? null),
    policyPreset: c.policyPreset,
    frequencyCap: c.frequencyCap ?? null,
    parameters: c.parameters === null || c.parameters === undefined ? null : readMapping(c.parameters, `campaign ${c.id}`),
    timing: timingAsInput(c),
    createdAt: iso(c.createdAt),
    updatedAt: iso(c.updatedAt),
  };
}

function poolJson(pool: SenderPool | null): z.output<typeof senderPoolJson> | null {
  if (pool === null) return null;
  return pool.by === 'spread'
    ? { by: 'spread', numbers: [...pool.numbers] }
    : { by: 'country', countries: { ...pool.countries }, otherwise: pool.otherwise };
}

export const withCounters = (c: Campaign, counters: CampaignCounters) => ({ ...campaignJson(c), counters });

/** An instant as requests give it: ISO 8601 with its zone (`Z` or `+01:00`), read as epoch milliseconds. */
export const instantInput = z.iso
  .datetime({ offset: true, error: 'an ISO 8601 time with its zone, e.g. 2026-12-01T09:00:00Z' })
  .transform((text) => Date.parse(text))
  .describe('ISO 8601 time with its zone, e.g. 2026-12-01T09:00:00Z');
