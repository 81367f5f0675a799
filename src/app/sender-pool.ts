import { getCountryCallingCode, isSupportedCountry } from 'libphonenumber-js/max';
import { z } from 'zod';
import { poolNumbers, poolShares, type PoolShare, type SenderPool } from '../core/sender-pool.js';
import type { Campaign, JsonObject, Sender } from '../ports/store.js';

const phoneNumberId = z.string().regex(/^\d{5,20}$/, "a phone number id is Meta's digits");

/** A pool as stored with its campaign, and as the CLI and the API take it. */
export const senderPoolSchema = z.discriminatedUnion('by', [
  z.object({ by: z.literal('spread'), numbers: z.array(phoneNumberId).min(2, 'a spread needs at least two numbers') }).strict(),
  z
    .object({
      by: z.literal('country'),
      countries: z.record(z.string().regex(/^[A-Za-z]{2}$/, 'an ISO country code, e.g. GB'), phoneNumberId),
      otherwise: phoneNumberId.nullable().default(null),
    })
    .strict(),
]);

/** The calling code's digits of an ISO country, or null for one libphonenumber does not know. */
export function callingCodeOf(country: string): string | null {
  return isSupportedCountry(country) ? getCountryCallingCode(country) : null;
}

/** A campaign's stored pool; null when it sends from its own number alone. */
export function readPool(stored: JsonObject | null | undefined, where: string): SenderPool | null {
  if (stored === null || stored === undefined) return null;
  const parsed = senderPoolSchema.safeParse(stored);
  if (!parsed.success)
    throw new Error(
      `${where}: its sender pool cannot be read: ${parsed.error.issues.map((i) => `${i.path.join('.')} ${i.message}`).join('; ')}`,
    );
  return parsed.data;
}

/** The pool's shares of the audience, or the problem that makes it unusable. */
export function sharesOf(pool: SenderPool): { ok: true; shares: PoolShare[] } | { ok: false; problem: string } {
  return poolShares(pool, callingCodeOf);
}

/** Whether the campaign sends from this number: its own, or one of its pool's. */
export function campaignSendsFrom(
  campaign: Pick<Campaign, 'id' | 'senderId' | 'senderPool'>,
  sender: Pick<Sender, 'id' | 'phoneNumberId'>,
): boolean {
  if (campaign.senderId === sender.id) return true;
  const pool = readPool(campaign.senderPool, `campaign ${campaign.id}`);
  return pool !== null && poolNumbers(pool).includes(sender.phoneNumberId);
}
