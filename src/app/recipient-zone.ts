import ct from 'countries-and-timezones';
import { isTimeZone } from '../core/local-time.js';
import { recipientRegion } from './recipient-region.js';

/**
 * Countries with several zones: the zone most of their people live in (a modelling choice: a
 * recipient's own `time_zone` attribute, when the business knows it, is better). Other countries
 * take their one zone from countries-and-timezones (IANA's zone1970.tab; the package follows each
 * tzdata release, so `npm update` keeps it current).
 */
const MOST_POPULOUS: Readonly<Record<string, string>> = {
  US: 'America/New_York',
  CA: 'America/Toronto',
  MX: 'America/Mexico_City',
  BR: 'America/Sao_Paulo',
  AR: 'America/Argentina/Buenos_Aires',
  CL: 'America/Santiago',
  EC: 'America/Guayaquil',
  RU: 'Europe/Moscow',
  KZ: 'Asia/Almaty',
  UA: 'Europe/Kyiv',
  ES: 'Europe/Madrid',
  PT: 'Europe/Lisbon',
  DE: 'Europe/Berlin',
  CN: 'Asia/Shanghai',
  ID: 'Asia/Jakarta',
  MY: 'Asia/Kuala_Lumpur',
  MN: 'Asia/Ulaanbaatar',
  UZ: 'Asia/Tashkent',
  AU: 'Australia/Sydney',
  NZ: 'Pacific/Auckland',
  CD: 'Africa/Kinshasa',
  PG: 'Pacific/Port_Moresby',
  KI: 'Pacific/Tarawa',
  PF: 'Pacific/Tahiti',
  GL: 'America/Nuuk',
  FM: 'Pacific/Pohnpei',
};

/** Contact attributes that may hold the recipient's own zone (IANA name, e.g. `America/Chicago`). */
const ZONE_ATTRIBUTES = ['time_zone', 'timezone', 'tz'];

const byCountry = new Map<string, string | null>();

/** The zone of a country (ISO 3166 alpha-2), or null when none is known. */
export function countryZone(country: string): string | null {
  const hit = byCountry.get(country);
  if (hit !== undefined) return hit;
  const zones = ct.getCountry(country)?.timezones ?? [];
  const zone = MOST_POPULOUS[country] ?? zones.find((z) => !z.startsWith('Antarctica/')) ?? null;
  const known = zone !== null && isTimeZone(zone) ? zone : null;
  byCountry.set(country, known);
  return known;
}

/**
 * A recipient's zone: their own (a `time_zone` attribute naming a zone the platform knows), else
 * their phone number's country's, else `fallback` (the campaign's, or the installation's).
 */
export function recipientZone(
  contact: { phoneE164: string | null; attributes: Readonly<Record<string, unknown>> },
  fallback: string,
): string {
  for (const key of ZONE_ATTRIBUTES) {
    const value = contact.attributes[key];
    if (typeof value === 'string' && value !== '' && isTimeZone(value)) return value;
  }
  const region = recipientRegion(contact.phoneE164);
  return (region === null ? null : countryZone(region)) ?? fallback;
}
