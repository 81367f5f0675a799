import { z } from 'zod';
import { classifyCode, resolveErrorEntry } from '../../../core/error-catalogue/index.js';
import type { OutboxOutcome, OutboxStatus } from '../../../ports/store.js';

/** What the message routes and a campaign's recipients share: statuses, outcomes, and an error as the catalogue explains it. */

export const OUTBOX_STATUSES = [
  'queued',
  'held',
  'leased',
  'sending',
  'sent',
  'done',
  'unknown',
] as const satisfies readonly OutboxStatus[];
export const OUTBOX_OUTCOMES = [
  'accepted',
  'delivered',
  'read',
  'failed',
  'skipped',
  'capped_exhausted',
  'cancelled',
] as const satisfies readonly OutboxOutcome[];

export const statusSchema = z
  .enum(OUTBOX_STATUSES)
  .describe('queued → leased → sending → sent → done; held waits for the contact to write in; unknown: a crash hid whether it went');
export const outcomeSchema = z
  .enum(OUTBOX_OUTCOMES)
  .nullable()
  .describe('how it ended, or how far it got once sent (accepted, delivered, read); null while it waits');

export const lastErrorSchema = z
  .object({
    code: z.number().int().describe("Meta's error code"),
    class: z.string().describe('the catalogue’s class, e.g. per_user_marketing_cap, recipient_undeliverable'),
    name: z.string().nullable().describe('the catalogue’s short name; null for a code it does not know'),
    meaning: z.string().nullable().describe('what Meta is telling you, in one or two sentences (GET /errors/{code} has the rest)'),
  })
  .describe('the last error Meta reported for it');

/** The last error code as the catalogue explains it under this installation's cap codes. */
export function lastErrorJson(code: number | null, capCodes: readonly number[]): z.output<typeof lastErrorSchema> | null {
  if (code === null) return null;
  const entry = resolveErrorEntry(code, capCodes);
  return { code, class: classifyCode(code, capCodes), name: entry?.name ?? null, meaning: entry?.page.meaning ?? null };
}
