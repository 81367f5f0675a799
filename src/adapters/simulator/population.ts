import type { Millis } from '../../core/time.js';
import type { SimulatorConfig } from './config.js';
import { COUNTRIES, isCountryCode, phoneFor, timeZoneFor, type CountryCode } from './countries.js';
import { hash32, Prng } from './prng.js';

const FIRST_NAMES = [
  'Ana',
  'Bruno',
  'Chen',
  'Dara',
  'Emeka',
  'Fatima',
  'Gita',
  'Hana',
  'Ivan',
  'Joy',
  'Kofi',
  'Lena',
  'Mateo',
  'Nia',
  'Omar',
  'Priya',
  'Rui',
  'Sari',
  'Tomas',
  'Uma',
  'Vera',
  'Wei',
  'Yusuf',
  'Zoe',
];

/** A simulated WhatsApp user: fixed traits from the seed, plus what happens to them during the run. */
export interface SimUser {
  index: number;
  /** wa_id: country code and number, digits only. */
  phone: string;
  /** Business-scoped user id (`CC.<digits>`), accepted as `recipient`. */
  userId: string;
  /** A username hides the number from our webhooks until the business messages that number (Meta's 30-day rule). */
  username: string | null;
  name: string;
  country: CountryCode;
  /** IANA time zone, from the country (and a US number's area code): the local hour shapes reads and blocks. */
  timeZone: string;
  onWhatsApp: boolean;
  experiment: boolean;
  readPropensity: number;
  replyPropensity: number;
  /** 0..1: how much marketing in general appeals to them. */
  interest: number;
  otherMarketingPerDay: number;
  /** Adaptive per-user cap: marketing messages per rolling window, tighter for users who read little. */
  capLimit: number;
  /** Independent random streams, so one user's draws never depend on another's traffic. */
  capRng: Prng;
  reactRng: Prng;
  state: UserState;
}

export interface UserState {
  /** A username user's number shows in webhooks once the business has sent to it (never unset: runs are shorter than 30 days). */
  phoneShared: boolean;
  stoppedMarketing: boolean;
  blocked: boolean;
  /** Customer-service window with our business, opened by their last message to us. */
  windowOpenUntil: Millis;
  /** Delivered marketing from every business that counts toward the cap, oldest first. */
  marketingLog: Millis[];
  /** When the next marketing message from another business arrives (generated lazily). */
  nextOtherAt: Millis;
  /** Last 131049 our business got for this user; a retry within the penalty fails and restarts it. */
  lastCapAt: Millis | null;
  /** Our marketing deliveries, for the frequency effect on reactions. */
  ourMarketing: Millis[];
  annoyance: number;
}

export interface Population {
  users: readonly SimUser[];
  byPhone(phone: string): SimUser | undefined;
  byUserId(userId: string): SimUser | undefined;
}

/** Each country's share of `size` by largest remainders (ties to the earlier country). */
export function countryCounts(weights: Partial<Record<CountryCode, number>>, size: number): Array<[CountryCode, number]> {
  const entries = (Object.entries(weights) as Array<[CountryCode, number]>).filter(([, w]) => w > 0);
  const total = entries.reduce((sum, [, w]) => sum + w, 0);
  if (total <= 0) throw new Error('simulator config: population.countries must not all be zero');
  const quotas = entries.map(([code, w]) => ({ code, whole: Math.floor((size * w) / total), rest: (size * w) / total }));
  for (const q of quotas) q.rest -= q.whole;
  let left = size - quotas.reduce((sum, q) => sum + q.whole, 0);
  for (const q of [...quotas].sort((a, b) => b.rest - a.rest)) if (left-- > 0) q.whole++;
  return quotas.map((q) => [q.code, q.whole]);
}

/** `countryCounts` as one country per user, in a seeded order. */
function exactCountries(weights: Partial<Record<CountryCode, number>>, size: number, rng: Prng): CountryCode[] {
  const out = countryCounts(weights, size).flatMap(([code, n]) => Array.from({ length: n }, () => code));
  for (let i = out.length - 1; i > 0; i--) {
    const j = rng.int(0, i);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

export function generatePopulation(config: SimulatorConfig, start: Millis): Population {
  const p = config.population;
  const rng = new Prng(hash32(`${config.seed}:population`));
  const weights: Partial<Record<CountryCode, number>> = {};
  for (const [code, w] of Object.entries(p.countries)) {
    if (!isCountryCode(code)) throw new Error(`simulator config: population.countries.${code} is not a known country`);
    weights[code] = w;
  }
  const users: SimUser[] = [];
  const phones = new Map<string, SimUser>();
  const ids = new Map<string, SimUser>();
  const exact = p.countryMix === 'exact' ? exactCountries(weights, p.size, new Prng(hash32(`${config.seed}:countries`))) : null;
  for (let index = 0; index < p.size; index++) {
    const country = exact?.[index] ?? rng.weighted(weights as Record<CountryCode, number>);
    let phone = phoneFor(country, rng);
    while (phones.has(phone)) phone = phoneFor(country, rng);
    const readPropensity = rng.between(p.readPropensity.min, p.readPropensity.max);
    const capSpan = config.cap.maxPerWindow - config.cap.minPerWindow;
    const user: SimUser = {
      index,
      phone,
      userId: `${country}.${String(hash32(`${config.seed}:bsuid:${index}`))}${String(index).padStart(6, '0')}`,
      // Its own stream, so a population with usernames keeps every other trait of the same seed.
      username: new Prng(hash32(`${config.seed}:username:${index}`)).chance(p.usernameRate) ? `@user.${index}` : null,
      name: `${rng.pick(FIRST_NAMES)} ${String.fromCharCode(65 + rng.int(0, 25))}.`,
      country,
      timeZone: timeZoneFor(country, phone),
      onWhatsApp: !rng.chance(p.notOnWhatsAppRate),
      experiment: rng.chance(p.experimentRate),
      readPropensity,
      replyPropensity: rng.between(p.replyPropensity.min, p.replyPropensity.max),
      interest: rng.next(),
      otherMarketingPerDay: rng.between(p.otherMarketingPerDay.min, p.otherMarketingPerDay.max),
      capLimit: config.cap.minPerWindow + Math.round(capSpan * readPropensity),
      capRng: new Prng(hash32(`${config.seed}:cap:${index}`)),
      reactRng: new Prng(hash32(`${config.seed}:react:${index}`)),
      state: {
        phoneShared: false,
        stoppedMarketing: rng.chance(p.stoppedRate),
        blocked: false,
        windowOpenUntil: 0,
        marketingLog: [],
        // Warm start: play three windows of other businesses' marketing before the run begins.
        nextOtherAt: start - 3 * config.cap.windowMs,
        lastCapAt: null,
        ourMarketing: [],
        annoyance: 0,
      },
    };
    users.push(user);
    phones.set(phone, user);
    ids.set(user.userId, user);
  }
  return { users, byPhone: (phone) => phones.get(phone), byUserId: (id) => ids.get(id) };
}

/**
 * The user's number as webhooks show it: the digits, or for a username user whose number the
 * business has not messaged, nothing (or `""`, as Meta once wrote it).
 */
export function shownPhone(user: SimUser, withheld: 'omitted' | 'empty'): string | undefined {
  if (user.username === null || user.state.phoneShared) return user.phone;
  return withheld === 'empty' ? '' : undefined;
}

/** Whether `phone` dials the US (+1 with a US area code; the simulator only generates US +1 numbers). */
export function isUsNumber(user: SimUser): boolean {
  return user.country === 'US' && user.phone.startsWith(COUNTRIES.US.dial);
}

/** A number shown in logs and errors: never the full phone number. */
export function maskPhone(phone: string): string {
  return phone.length <= 4 ? '****' : `${'*'.repeat(phone.length - 4)}${phone.slice(-4)}`;
}
