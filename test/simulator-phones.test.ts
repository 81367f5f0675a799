import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { describe, expect, it } from 'vitest';
import { normalisePhone } from '../src/app/normalise-phone.js';
import { resolveSimulatorConfig } from '../src/adapters/simulator/resolve-config.js';
import { COUNTRIES, type CountryCode } from '../src/adapters/simulator/countries.js';
import { generatePopulation } from '../src/adapters/simulator/population.js';

const EVERY_COUNTRY = Object.fromEntries(Object.keys(COUNTRIES).map((c) => [c, 1])) as Record<CountryCode, number>;

function phones(seed: number, size: number, countries: Partial<Record<CountryCode, number>> = EVERY_COUNTRY) {
  return generatePopulation(resolveSimulatorConfig({ seed, population: { size, countries } }), 0).users;
}

describe('simulated phone numbers', () => {
  it('are all accepted by the importer: valid mobile numbers of the user’s own country', () => {
    const users = phones(3, 50_000);
    const refused: string[] = [];
    const perCountry: Record<string, number> = {};
    for (const u of users) {
      perCountry[u.country] = (perCountry[u.country] ?? 0) + 1;
      const check = normalisePhone(`+${u.phone}`, null);
      const parsed = parsePhoneNumberFromString(`+${u.phone}`);
      const type = parsed?.getType();
      if (!check.ok) refused.push(`${u.country}: ${check.reason}`);
      else if (check.e164 !== `+${u.phone}`) refused.push(`${u.country}: normalised to another number`);
      else if (parsed?.country !== u.country) refused.push(`${u.country}: the number belongs to ${parsed?.country ?? 'no country'}`);
      else if (type !== 'MOBILE' && type !== 'FIXED_LINE_OR_MOBILE')
        refused.push(`${u.country}: a ${type ?? 'number of no type'}, not a mobile`);
    }
    expect(refused.slice(0, 10)).toEqual([]);
    expect(Object.keys(perCountry).sort()).toEqual(Object.keys(COUNTRIES).sort());
    expect(Math.min(...Object.values(perCountry))).toBeGreaterThan(3_000);
  });

  it('are unique and follow from the seed alone', () => {
    const a = phones(8, 5_000).map((u) => u.phone);
    expect(new Set(a).size).toBe(a.length);
    expect(phones(8, 5_000).map((u) => u.phone)).toEqual(a);
    expect(phones(9, 5_000).map((u) => u.phone)).not.toEqual(a);
  });
});
