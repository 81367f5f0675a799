/**
 * A campaign sending from several numbers: spread evenly (by contact), or each recipient from the
 * number of their country (by calling code), the rest from `otherwise`. Numbers are Meta's phone
 * number ids. Each row is assigned its number once, when the campaign starts, and only ever goes from it.
 */
export type SenderPool =
  { by: 'spread'; numbers: readonly string[] } | { by: 'country'; countries: Readonly<Record<string, string>>; otherwise: string | null };

/** Which of the segment's recipients one number of the pool takes. */
export type RecipientShare =
  | { kind: 'modulo'; of: number; is: number }
  /** Phones starting with one of these calling codes (digits, no `+`). */
  | { kind: 'calling_codes'; codes: readonly string[] }
  /** Everyone else: phones with none of these codes, and recipients known by user id alone. */
  | { kind: 'other_calling_codes'; codes: readonly string[] };

export interface PoolShare {
  phoneNumberId: string;
  recipients: RecipientShare;
}

/** Every number a pool sends from, each once, its first (the campaign's own number) first. */
export function poolNumbers(pool: SenderPool): string[] {
  const all =
    pool.by === 'spread' ? [...pool.numbers] : [...Object.values(pool.countries), ...(pool.otherwise === null ? [] : [pool.otherwise])];
  return all.filter((n, i) => all.indexOf(n) === i);
}

/** ISO country → its calling code's digits, or null for a code that is not a country's. */
export type CallingCodeOf = (country: string) => string | null;

/**
 * The pool as disjoint shares of the audience: every recipient falls in exactly one. Problems name
 * the country or number: a country without a calling code, two countries sharing one but going
 * from different numbers (the code cannot tell them apart), a spread over fewer than two numbers.
 */
export function poolShares(
  pool: SenderPool,
  callingCodeOf: CallingCodeOf,
): { ok: true; shares: PoolShare[] } | { ok: false; problem: string } {
  if (pool.by === 'spread') {
    const numbers = poolNumbers(pool);
    if (numbers.length < 2) return { ok: false, problem: 'a spread needs at least two different numbers' };
    return {
      ok: true,
      shares: numbers.map((phoneNumberId, is) => ({ phoneNumberId, recipients: { kind: 'modulo', of: numbers.length, is } })),
    };
  }
  const byCode = new Map<string, { country: string; number: string }>();
  for (const [country, number] of Object.entries(pool.countries)) {
    const code = callingCodeOf(country.toUpperCase());
    if (code === null) return { ok: false, problem: `${country} is not a country code Pacer knows (ISO 3166, e.g. GB, DE, BR)` };
    const seen = byCode.get(code);
    if (seen !== undefined && seen.number !== number)
      return {
        ok: false,
        problem: `${seen.country} and ${country} share the calling code +${code}, so they cannot go from different numbers`,
      };
    byCode.set(code, { country, number });
  }
  if (byCode.size === 0) return { ok: false, problem: 'a country pool needs at least one country' };
  const codesOf = new Map<string, string[]>();
  for (const [code, { number }] of byCode) codesOf.set(number, [...(codesOf.get(number) ?? []), code]);
  const shares: PoolShare[] = [...codesOf].map(([phoneNumberId, codes]) => ({
    phoneNumberId,
    recipients: { kind: 'calling_codes', codes },
  }));
  // Without `otherwise`, recipients of other countries are not in the campaign.
  if (pool.otherwise !== null)
    shares.push({ phoneNumberId: pool.otherwise, recipients: { kind: 'other_calling_codes', codes: [...byCode.keys()] } });
  return { ok: true, shares };
}
