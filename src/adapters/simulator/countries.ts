import type { Prng } from './prng.js';

/** Countries the simulated population lives in, with a mobile-number shape for each. */
export const COUNTRIES = {
  US: { dial: '1', digits: (r: Prng) => `${r.int(201, 989)}${r.int(200, 999)}${pad(r.int(0, 9999), 4)}` },
  GB: { dial: '44', digits: (r: Prng) => `7${r.int(400, 999)}${pad(r.int(0, 999999), 6)}` },
  DE: { dial: '49', digits: (r: Prng) => `1${r.pick(['51', '52', '57', '60', '62', '70', '71', '76'])}${pad(r.int(0, 9999999), 7)}` },
  ES: { dial: '34', digits: (r: Prng) => `6${pad(r.int(0, 99999999), 8)}` },
  IN: { dial: '91', digits: (r: Prng) => `${r.int(6, 9)}${pad(r.int(0, 999999999), 9)}` },
  BR: { dial: '55', digits: (r: Prng) => `${r.int(11, 99)}9${pad(r.int(0, 99999999), 8)}` },
  ID: { dial: '62', digits: (r: Prng) => `8${r.int(11, 59)}${pad(r.int(0, 99999999), 8)}` },
  MX: { dial: '52', digits: (r: Prng) => `${r.int(33, 99)}${pad(r.int(0, 99999999), 8)}` },
  NG: { dial: '234', digits: (r: Prng) => `${r.pick(['70', '80', '81', '90', '91'])}${pad(r.int(0, 99999999), 8)}` },
  ZA: { dial: '27', digits: (r: Prng) => `${r.pick(['60', '71', '72', '73', '82', '83'])}${pad(r.int(0, 9999999), 7)}` },
  JP: { dial: '81', digits: (r: Prng) => `${r.pick(['70', '80', '90'])}${pad(r.int(0, 99999999), 8)}` },
  KR: { dial: '82', digits: (r: Prng) => `10${pad(r.int(0, 99999999), 8)}` },
} as const;

export type CountryCode = keyof typeof COUNTRIES;

export function isCountryCode(value: string): value is CountryCode {
  return Object.hasOwn(COUNTRIES, value);
}

/** A full wa_id (country code and number, digits only) for a user in `country`. */
export function phoneFor(country: CountryCode, rng: Prng): string {
  const c = COUNTRIES[country];
  return c.dial + c.digits(rng);
}

function pad(n: number, width: number): string {
  return String(n).padStart(width, '0');
}
