import metadataJson from 'libphonenumber-js/metadata.max.json';

/**
 * A fast path for the most common import input, a number already written `+<country code><digits>`
 * (spaces or dashes allowed): the same validation as parsing it with the full metadata (every
 * number type's pattern and lengths of the country the digits belong to), decided with each
 * pattern compiled once instead of at every call. It only ever says "valid, and this is its E.164";
 * anything it does not decide (`null`: invalid, a national prefix it cannot strip as the library
 * would, a non-geographic code, other punctuation) goes the full way, which also words the refusal.
 */

/** Positions in a country's entry of the metadata (version 4), as the library reads them. */
const NATIONAL_NUMBER_PATTERN = 2;
const POSSIBLE_LENGTHS = 3;
const NATIONAL_PREFIX = 5;
const NATIONAL_PREFIX_FOR_PARSING = 7;
const LEADING_DIGITS = 10;
const TYPES = 11;
/** Fixed line first, then mobile, toll free, premium, personal, voicemail, UAN, pager, VoIP, shared cost: any one makes a number valid. */
const TYPE_COUNT = 10;

interface Plan {
  nationalNumber: RegExp;
  /** Each type with a pattern: its pattern and lengths (its own, else the country's). */
  types: Array<{ pattern: RegExp; lengths: readonly number[] | undefined }>;
  /** Which of the countries sharing a calling code the digits belong to, when it is told by their start. */
  leadingDigits: RegExp | null;
  /** The national prefix as the library strips it from the digits after the calling code. */
  prefixForParsing: RegExp | null;
  /** The country's possible lengths, if its metadata lists them. */
  lengths: readonly number[] | undefined;
  hasTypes: boolean;
}

interface Metadata {
  version: number;
  country_calling_codes: Record<string, string[]>;
  countries: Record<string, unknown[]>;
  nonGeographic?: Record<string, unknown>;
}

const METADATA = metadataJson as unknown as Metadata;
const plans = new Map<string, Plan>();

function planOf(country: string): Plan {
  let plan = plans.get(country);
  if (plan !== undefined) return plan;
  const entry = METADATA.countries[country]!;
  const lengths = entry[POSSIBLE_LENGTHS] as number[] | undefined;
  const types = (entry[TYPES] as Array<[string, number[]?] | undefined> | undefined) ?? [];
  const prefix = (entry[NATIONAL_PREFIX_FOR_PARSING] as string | undefined) || (entry[NATIONAL_PREFIX] as string | undefined);
  const leading = entry[LEADING_DIGITS] as string | undefined;
  plan = {
    nationalNumber: new RegExp(`^(?:${entry[NATIONAL_NUMBER_PATTERN] as string})$`),
    types: types
      .slice(0, TYPE_COUNT)
      .filter((t): t is [string, number[]?] => t !== undefined && t !== null && Boolean(t[0]))
      .map(([pattern, own]) => ({ pattern: new RegExp(`^(?:${pattern})$`), lengths: own ?? lengths })),
    leadingDigits: leading ? new RegExp(leading) : null,
    prefixForParsing: prefix ? new RegExp(`^(?:${prefix})`) : null,
    hasTypes: types.length > 0,
    lengths,
  };
  plans.set(country, plan);
  return plan;
}

/** The library's "is this number of any type of this country". */
function hasAType(plan: Plan, national: string): boolean {
  if (!plan.nationalNumber.test(national)) return false;
  return plan.types.some((t) => (t.lengths === undefined || t.lengths.includes(national.length)) && t.pattern.test(national));
}

const SIMPLE = /^\+\d[\d ()-]*\d$/;

/** `+44 7911 123456` or `+44 (0) 7911 123456` → `+447911123456` when valid with the full metadata; null when the full parse must decide. */
export function validInternationalNumber(text: string): string | null {
  if (text.length > 40 || !SIMPLE.test(text)) return null;
  const digits = text.slice(1).replace(/[ ()-]/g, '');
  if (digits.startsWith('0')) return null;
  for (let i = 1; i <= 3 && i < digits.length; i++) {
    const code = digits.slice(0, i);
    if (METADATA.nonGeographic?.[code] !== undefined) return null;
    const countries = METADATA.country_calling_codes[code];
    if (countries === undefined) continue;
    const national = withoutNationalPrefix(countries, digits.slice(i));
    if (national === null || national.length < 2 || national.length > 17) return null;
    return validFor(countries, national) !== null ? `+${code}${national}` : null;
  }
  return null;
}

/**
 * The national number after the national prefix written in it (`+44 (0) 7911…`), as the library
 * strips it: only a plain prefix (no carrier code, no rewrite), and only when what remains is valid
 * for the main plan and of a possible length for its country (when the library would keep the
 * prefix, or might, null).
 */
function withoutNationalPrefix(countries: readonly string[], national: string): string | null {
  const main = planOf(countries[0]!);
  const match = main.prefixForParsing?.exec(national);
  if (match === null || match === undefined) return national;
  if (match.length > 1 && match[match.length - 1] !== undefined) return null;
  const stripped = national.slice(match[0].length);
  if (stripped === national) return national;
  if (!main.nationalNumber.test(stripped)) return null;
  const country = validFor(countries, stripped);
  if (country === null || (country.lengths !== undefined && !country.lengths.includes(stripped.length))) return null;
  return stripped;
}

/** The country the digits belong to, as the library picks it, when they are valid there. */
function validFor(countries: readonly string[], national: string): Plan | null {
  let plan: Plan | undefined;
  if (countries.length === 1) plan = planOf(countries[0]!);
  else {
    for (const country of countries) {
      const candidate = planOf(country);
      if (candidate.leadingDigits !== null ? national.search(candidate.leadingDigits) === 0 : hasAType(candidate, national)) {
        plan = candidate;
        break;
      }
    }
  }
  // No country told: the calling code's main country decides, as in the library.
  plan ??= planOf(countries[0]!);
  const valid = plan.hasTypes ? hasAType(plan, national) : plan.nationalNumber.test(national);
  return valid ? plan : null;
}
