import { COUNTRIES, type CountryCode } from '../../adapters/simulator/countries.js';

/** USD per delivered template, by the recipient's country and the template's category. */
export type PriceTable = Record<CountryCode, { marketing: number; utility: number }>;

/**
 * Our assumption, not Meta's rate card: Meta bills each delivered template by category and the
 * recipient's calling code (reference §5.8) and publishes the rates; these are rounded figures of
 * the order of its 2025 card, for comparing strategies, never for a budget. Free windows and
 * volume tiers are left out: every delivered template is billed at the rate here.
 */
export const ASSUMED_PRICES: PriceTable = {
  US: { marketing: 0.025, utility: 0.004 },
  GB: { marketing: 0.053, utility: 0.022 },
  DE: { marketing: 0.137, utility: 0.077 },
  ES: { marketing: 0.062, utility: 0.02 },
  IN: { marketing: 0.012, utility: 0.0014 },
  BR: { marketing: 0.063, utility: 0.008 },
  ID: { marketing: 0.041, utility: 0.025 },
  MX: { marketing: 0.031, utility: 0.009 },
  NG: { marketing: 0.052, utility: 0.007 },
  ZA: { marketing: 0.038, utility: 0.008 },
  JP: { marketing: 0.086, utility: 0.014 },
  KR: { marketing: 0.07, utility: 0.012 },
};

export const PRICE_SOURCE =
  'Prices: our assumption in USD per delivered template (rounded, of the order of Meta’s 2025 rate card; Meta bills delivered templates only, by category and country). Free windows and volume tiers are left out.';

/** Longest calling code first, so +234 is Nigeria and not a +2x country. */
const BY_DIAL = (Object.entries(COUNTRIES) as Array<[CountryCode, { dial: string }]>).sort((a, b) => b[1].dial.length - a[1].dial.length);

/** The country a wa_id dials, from its calling code; null for one the simulator does not generate. */
export function countryOfWaId(waId: string): CountryCode | null {
  for (const [code, c] of BY_DIAL) if (waId.startsWith(c.dial)) return code;
  return null;
}

/** What one delivered message costs; 0 for categories and countries the table does not bill. */
export function priceOf(prices: PriceTable, waId: string, category: string): number {
  const country = countryOfWaId(waId);
  if (country === null) return 0;
  if (category === 'marketing') return prices[country].marketing;
  if (category === 'utility') return prices[country].utility;
  return 0;
}
