import type { Prng } from './prng.js';

/**
 * A mobile range: the start of the national number (digits and `[...]` digit classes, one digit
 * each) and the national number's length. Every range sits inside the mobile pattern of
 * libphonenumber's full metadata, the one Pacer's import validates with, so every generated number
 * is one the importer accepts (`test/simulator-phones.test.ts` checks a large population).
 */
type Range = readonly [start: string, length: number];

/**
 * US area codes of large cities, with the zone each city keeps; the exchange after them never
 * starts with 0 or 1. (602, Phoenix, keeps Mountain Standard Time all year.)
 */
const US_AREAS = [
  ['201', 'America/New_York'],
  ['202', 'America/New_York'],
  ['206', 'America/Los_Angeles'],
  ['212', 'America/New_York'],
  ['213', 'America/Los_Angeles'],
  ['214', 'America/Chicago'],
  ['305', 'America/New_York'],
  ['310', 'America/Los_Angeles'],
  ['312', 'America/Chicago'],
  ['404', 'America/New_York'],
  ['415', 'America/Los_Angeles'],
  ['512', 'America/Chicago'],
  ['602', 'America/Phoenix'],
  ['617', 'America/New_York'],
  ['702', 'America/Los_Angeles'],
  ['713', 'America/Chicago'],
  ['718', 'America/New_York'],
  ['773', 'America/Chicago'],
  ['786', 'America/New_York'],
  ['818', 'America/Los_Angeles'],
  ['917', 'America/New_York'],
  ['972', 'America/Chicago'],
] as const;
const US_AREA_ZONES: ReadonlyMap<string, string> = new Map(US_AREAS);
/** Brazilian area codes (DDD); mobile numbers add a 9 after them. */
const BR_AREAS = ['11', '19', '21', '27', '31', '41', '47', '51', '61', '62', '71', '81', '85', '91'];

/**
 * Countries the simulated population lives in, with their calling code, mobile ranges and IANA
 * time zone. A country with several zones gets its most populous one: Spain Madrid (not the
 * Canaries; Spanish mobile numbers say nothing of the region), Indonesia Jakarta (western
 * Indonesia, WIB; nor do Indonesian ones), Mexico Mexico City and Brazil Sao Paulo (the area codes
 * below all keep that zone's time). US numbers carry a city with several zones between them:
 * `timeZoneFor` takes the area code's zone, and `zone` here is the fallback.
 */
export const COUNTRIES = {
  US: { dial: '1', zone: 'America/New_York', mobile: US_AREAS.map(([a]): Range => [`${a}[2-9]`, 10]) },
  GB: {
    zone: 'Europe/London',
    dial: '44',
    mobile: [
      ['74[0-46-9]', 10],
      ['75[13-9]', 10],
      ['77[1-7]', 10],
      ['78[014-9]', 10],
      ['79[024-9]', 10],
    ],
  },
  DE: {
    zone: 'Europe/Berlin',
    dial: '49',
    mobile: [
      ['15[1279]', 11],
      ['16[023]', 10],
      ['17', 11],
    ],
  },
  ES: {
    zone: 'Europe/Madrid',
    dial: '34',
    mobile: [
      ['6', 9],
      ['7[1-4]', 9],
    ],
  },
  IN: {
    zone: 'Asia/Kolkata',
    dial: '91',
    mobile: [
      ['9', 10],
      ['7[024]', 10],
      ['8[45]', 10],
      ['6[09]', 10],
    ],
  },
  BR: { dial: '55', zone: 'America/Sao_Paulo', mobile: BR_AREAS.map((a): Range => [`${a}9`, 11]) },
  ID: {
    zone: 'Asia/Jakarta',
    dial: '62',
    mobile: [
      ['81[1-9]', 11],
      ['82[1-3]', 11],
      ['85[2-9]', 11],
      ['87[78]', 11],
      ['89[5-9]', 11],
    ],
  },
  MX: {
    zone: 'America/Mexico_City',
    dial: '52',
    mobile: [
      ['55', 10],
      ['56', 10],
      ['33', 10],
      ['81', 10],
    ],
  },
  NG: {
    zone: 'Africa/Lagos',
    dial: '234',
    mobile: [
      ['70[3-9]', 10],
      ['80[1-9]', 10],
      ['81[0-8]', 10],
      ['90[1-9]', 10],
      ['91[0-6]', 10],
    ],
  },
  ZA: {
    zone: 'Africa/Johannesburg',
    dial: '27',
    mobile: [
      ['6[0-4]', 9],
      ['7[1-46-9]', 9],
      ['8[1-4]', 9],
    ],
  },
  JP: { dial: '81', zone: 'Asia/Tokyo', mobile: [['[789]0[1-9]', 10]] },
  KR: { dial: '82', zone: 'Asia/Seoul', mobile: [['10[2-46-9]', 10]] },
} as const satisfies Record<string, { dial: string; zone: string; mobile: readonly Range[] }>;

export type CountryCode = keyof typeof COUNTRIES;

/**
 * `population.countries` with these weights and 0 for every other country: the simulator merges
 * objects with its defaults, so a country left out would otherwise keep its default weight.
 */
export function onlyCountryWeights(weights: Partial<Record<CountryCode, number>>): Record<CountryCode, number> {
  return Object.assign(Object.fromEntries(Object.keys(COUNTRIES).map((c) => [c, 0])) as Record<CountryCode, number>, weights);
}

export function isCountryCode(value: string): value is CountryCode {
  return Object.hasOwn(COUNTRIES, value);
}

/** The IANA time zone of a user in `country` with wa_id `phone` (the area code's, in the US). */
export function timeZoneFor(country: CountryCode, phone: string): string {
  const c = COUNTRIES[country];
  if (country === 'US') return US_AREA_ZONES.get(phone.slice(c.dial.length, c.dial.length + 3)) ?? c.zone;
  return c.zone;
}

/** A range compiled once: the choices for each leading digit, and how many free digits follow. */
interface CompiledRange {
  lead: string[][];
  free: number;
}

const COMPILED = Object.fromEntries(
  Object.entries(COUNTRIES).map(([code, c]) => [code, c.mobile.map(([start, length]) => compile(start, length))]),
) as Record<CountryCode, CompiledRange[]>;

/** A full wa_id (country code and national number, digits only) for a user in `country`. */
export function phoneFor(country: CountryCode, rng: Prng): string {
  const range = rng.pick(COMPILED[country]);
  let digits = COUNTRIES[country].dial;
  for (const choices of range.lead) digits += rng.pick(choices);
  // The free digits in chunks of at most 8, each one draw (well inside the generator's 32 bits).
  for (let left = range.free; left > 0; left -= 8) {
    const width = Math.min(8, left);
    digits += String(rng.int(0, 10 ** width - 1)).padStart(width, '0');
  }
  return digits;
}

function compile(start: string, length: number): CompiledRange {
  const lead: string[][] = [];
  for (let i = 0; i < start.length; i++) {
    if (start[i] !== '[') {
      lead.push([start[i] as string]);
      continue;
    }
    const end = start.indexOf(']', i);
    const body = start.slice(i + 1, end);
    const choices: string[] = [];
    for (let k = 0; k < body.length; k++) {
      if (body[k + 1] === '-') {
        for (let d = Number(body[k]); d <= Number(body[k + 2]); d++) choices.push(String(d));
        k += 2;
      } else {
        choices.push(body[k] as string);
      }
    }
    lead.push(choices);
    i = end;
  }
  if (lead.length >= length) throw new Error(`simulator countries: range ${start} leaves no free digits in ${length}`);
  return { lead, free: length - lead.length };
}
