import fc from 'fast-check';
import examples from 'libphonenumber-js/examples.mobile.json';
import metadataJson from 'libphonenumber-js/metadata.max.json';
import { getCountries, getCountryCallingCode, parsePhoneNumberWithError } from 'libphonenumber-js/max';
import { describe, expect, it } from 'vitest';
import { validInternationalNumber } from './international-number.js';

/** The full parse with the full metadata: the verdict the fast path must never contradict. */
function fullParse(text: string): string | null {
  try {
    const phone = parsePhoneNumberWithError(text);
    return phone.isValid() ? phone.number : null;
  } catch {
    return null;
  }
}

const callingCodes = [...new Set(getCountries().map((c) => getCountryCallingCode(c)))];
const nonGeographic = Object.keys((metadataJson as unknown as { nonGeographic: Record<string, unknown> }).nonGeographic);
const countries = (metadataJson as unknown as { countries: Record<string, unknown[]> }).countries;
const mobileExamples = Object.entries(examples as Record<string, string>).map(([country, national]) => {
  const code = getCountryCallingCode(country as never);
  // The national prefix written after the country code (`+44 0…`): the full parse may strip it.
  const prefix = typeof countries[country]?.[5] === 'string' ? (countries[country][5] as string) : '0';
  return { country, e164: `+${code}${national}`, withPrefix: `+${code}${prefix}${national}` };
});

/** Neighbours of a valid number: other last digits, one digit more or less (fixed lines, other types, invalid ones). */
function neighbours(e164: string): string[] {
  const out: string[] = [e164.slice(0, -1), `${e164}5`, `${e164}00`];
  for (let d = 0; d <= 9; d++) {
    out.push(`${e164.slice(0, -1)}${d}`, `${e164.slice(0, -2)}${d}${e164.slice(-1)}`, `${e164.slice(0, -4)}${d}${e164.slice(-3)}`);
  }
  // Digits just after the calling code decide the type and, for shared codes, the country.
  for (let d = 0; d <= 9; d++) out.push(`${e164.slice(0, 3)}${d}${e164.slice(4)}`, `${e164.slice(0, 4)}${d}${e164.slice(5)}`);
  return out;
}

/** The ways an export writes the same number. */
function spellings(e164: string): string[] {
  const digits = e164.slice(1);
  return [
    e164,
    `+${digits.slice(0, 2)} ${digits.slice(2)}`,
    `+${digits.slice(0, 3)}-${digits.slice(3, 6)}-${digits.slice(6)}`,
    `+${digits.slice(0, 2)} (${digits.slice(2, 3)}) ${digits.slice(3)}`,
    `+${digits.slice(0, 3)} (${digits.slice(3, 4)}) ${digits.slice(4)}`,
  ];
}

describe('validInternationalNumber', () => {
  it('agrees with the full parse on every country’s mobile example and its neighbours, in every spelling', () => {
    let decided = 0;
    let checked = 0;
    for (const { e164, withPrefix } of mobileExamples) {
      for (const candidate of [e164, ...neighbours(e164), withPrefix, ...neighbours(withPrefix)]) {
        for (const text of spellings(candidate)) {
          const fast = validInternationalNumber(text);
          checked += 1;
          if (fast === null) continue;
          decided += 1;
          expect({ text, fast }).toEqual({ text, fast: fullParse(text) });
        }
      }
    }
    // The fast path must actually decide most of them, or it is no fast path.
    expect(decided / checked).toBeGreaterThan(0.3);
  });

  it('decides every valid mobile example written with + and no national prefix, as the full parse does', () => {
    const undecided = mobileExamples.filter(({ e164 }) => fullParse(e164) === e164 && validInternationalNumber(e164) === null);
    // A few countries' numbers start with their national prefix (Italy's fixed lines keep their 0): the full parse decides those.
    expect(undecided.length).toBeLessThan(mobileExamples.length / 20);
    for (const country of ['GB', 'US', 'DE', 'IN', 'ID', 'BR', 'FR', 'NG', 'JE', 'CA']) {
      const e164 = mobileExamples.find((e) => e.country === country)!.e164;
      expect(validInternationalNumber(e164)).toBe(e164);
    }
  });

  it('never says valid where the full parse does not, for any digits after any calling code', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...callingCodes, ...nonGeographic),
        fc.stringMatching(/^\d{1,16}$/),
        fc.constantFrom('', ' ', '-', ' (0) ', '0', ' (1) ', '1'),
        (code, rest, separator) => {
          const text = `+${code}${separator}${rest}`;
          const fast = validInternationalNumber(text);
          return fast === null || fast === fullParse(text);
        },
      ),
      { numRuns: 20_000 },
    );
  });

  it('strips a national prefix written after the country code as the full parse does', () => {
    expect(validInternationalNumber('+44 (0) 7911 123456')).toBe('+447911123456');
    expect(validInternationalNumber('+44 07911 123456')).toBe('+447911123456');
    expect(fullParse('+44 (0) 7911 123456')).toBe('+447911123456');
  });

  it('leaves other spellings to the full parse', () => {
    for (const text of ['447911123456', '+44 7911 123456 ext. 2', '+44.7911.123456', '+0044 7911 123456', '+800 1234 5678'])
      expect(validInternationalNumber(text)).toBeNull();
  });
});
