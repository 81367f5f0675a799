/** A business portfolio's messaging limit, as `whatsapp_business_manager_messaging_limit` names it (reference §3.3). */
export const MESSAGING_LIMITS = ['TIER_250', 'TIER_2K', 'TIER_10K', 'TIER_100K', 'TIER_UNLIMITED'] as const;
export type MessagingLimit = (typeof MESSAGING_LIMITS)[number];

/** A phone number's `status` (reference §3.2); sending and receiving need `CONNECTED`. */
export const PHONE_NUMBER_STATUSES = [
  'BANNED',
  'CONNECTED',
  'DELETED',
  'DISCONNECTED',
  'FLAGGED',
  'MIGRATED',
  'PENDING',
  'RATE_LIMITED',
  'RESTRICTED',
  'UNKNOWN',
  'UNVERIFIED',
] as const;
export type PhoneNumberStatus = (typeof PHONE_NUMBER_STATUSES)[number];

export const NAME_STATUSES = ['APPROVED', 'AVAILABLE_WITHOUT_REVIEW', 'DECLINED', 'EXPIRED', 'PENDING_REVIEW', 'NONE'] as const;
export type NameStatus = (typeof NAME_STATUSES)[number];

const STARTING_RATINGS = ['GREEN', 'YELLOW', 'RED'] as const;

/** One business phone number of an account. */
export interface SimNumberConfig {
  phoneNumberId: string;
  /** Digits only, as webhook `metadata.display_phone_number` carries it. */
  displayPhoneNumber: string;
  verifiedName: string;
  /** Its own throughput (130429 beyond it); 1000 or more reads as `throughput.level: HIGH`. */
  throughputMps: number;
  status: PhoneNumberStatus;
  nameStatus: NameStatus;
  /** The rating it starts with (GREEN when left out); its own feedback moves it from there. */
  qualityRating?: 'GREEN' | 'YELLOW' | 'RED';
}

/** One WhatsApp Business Account: its token, the app secret that signs its webhooks, its numbers. */
export interface SimAccountConfig {
  wabaId: string;
  /** The only token that may read or send through this account's objects. */
  accessToken: string;
  appSecret: string;
  /** The business portfolio; accounts of one portfolio share its messaging limit. */
  portfolioId: string;
  messagingLimit: MessagingLimit;
  numbers: SimNumberConfig[];
}

export const DEFAULT_PORTFOLIO_ID = '500600700800900';
export const DEFAULT_VERIFIED_NAME = 'Simulated Shop';

/** The simulator config's fields that describe accounts (config.ts has the whole). */
interface AccountFields extends FirstNumber {
  accounts: SimAccountConfig[];
  rateLimits: { throughputMps: number };
  quality: { messagingTier: string };
}

interface AccountFieldsInput extends Partial<FirstNumber> {
  accounts?: SimAccountConfig[];
  rateLimits?: { throughputMps?: number };
  quality?: { messagingTier?: string };
}

interface FirstNumber {
  accessToken: string;
  appSecret: string;
  wabaId: string;
  phoneNumberId: string;
  displayPhoneNumber: string;
}

/** The one account (with one number) that the top-level fields describe. */
export function derivedAccount(first: FirstNumber, throughputMps: number, messagingLimit: string): SimAccountConfig {
  return {
    wabaId: first.wabaId,
    accessToken: first.accessToken,
    appSecret: first.appSecret,
    portfolioId: DEFAULT_PORTFOLIO_ID,
    messagingLimit: messagingLimit as MessagingLimit, // checked by validateAccounts
    numbers: [
      {
        phoneNumberId: first.phoneNumberId,
        displayPhoneNumber: first.displayPhoneNumber,
        verifiedName: DEFAULT_VERIFIED_NAME,
        throughputMps,
        status: 'CONNECTED',
        nameStatus: 'APPROVED',
      },
    ],
  };
}

export interface SimulatedAccountsOptions {
  /** How many accounts (1–50). */
  accounts?: number;
  /** Numbers in each account (1–100). */
  numbers?: number;
  /** The first account's token; account k (from 2) gets `<token>-k`. */
  accessToken?: string;
  /** The first account's app secret; account k (from 2) gets `<secret>-k`. */
  appSecret?: string;
  throughputMps?: number;
  messagingLimit?: MessagingLimit;
}

/**
 * Accounts with fixed ids, the same for every seed so that docs and tests can name them: account k
 * (from 0) has WABA `100200300400500 + k`; its number j (from 0) has id `106540352242922 + 1000k + j`
 * and display number `15550783881 + 100k + j`. The first account's first number is the default one.
 * All accounts belong to one portfolio.
 */
export function simulatedAccounts(options: SimulatedAccountsOptions = {}): SimAccountConfig[] {
  const accounts = options.accounts ?? 1;
  const numbers = options.numbers ?? 1;
  if (!Number.isInteger(accounts) || accounts < 1 || accounts > 50)
    throw new Error(`simulated accounts: accounts must be 1-50, got ${accounts}`);
  if (!Number.isInteger(numbers) || numbers < 1 || numbers > 100)
    throw new Error(`simulated accounts: numbers must be 1-100, got ${numbers}`);
  const token = options.accessToken ?? 'sim-access-token';
  const secret = options.appSecret ?? 'sim-app-secret';
  return Array.from({ length: accounts }, (_, k) => ({
    wabaId: String(100_200_300_400_500 + k),
    accessToken: k === 0 ? token : `${token}-${k + 1}`,
    appSecret: k === 0 ? secret : `${secret}-${k + 1}`,
    portfolioId: DEFAULT_PORTFOLIO_ID,
    messagingLimit: options.messagingLimit ?? 'TIER_2K',
    numbers: Array.from({ length: numbers }, (_, j) => ({
      phoneNumberId: String(106_540_352_242_922 + 1000 * k + j),
      displayPhoneNumber: String(15_550_783_881 + 100 * k + j),
      verifiedName: k === 0 ? DEFAULT_VERIFIED_NAME : `${DEFAULT_VERIFIED_NAME} ${k + 1}`,
      throughputMps: options.throughputMps ?? 80,
      status: 'CONNECTED' as const,
      nameStatus: 'APPROVED' as const,
    })),
  }));
}

const fail = (path: string, what: string): never => {
  throw new Error(`simulator config: ${path} ${what}`);
};

/**
 * Without `accounts`, derives the one account from the top-level fields; with it, checks it and
 * sets the top-level fields from its first number. A top-level field given alongside `accounts`
 * must agree with it, so that neither is silently ignored.
 */
export function resolveAccounts<C extends AccountFields>(merged: C, input: AccountFieldsInput): C {
  if (input.accounts === undefined) {
    if (!(MESSAGING_LIMITS as readonly string[]).includes(merged.quality.messagingTier)) {
      fail('quality.messagingTier', `must be one of ${MESSAGING_LIMITS.join(', ')}, got ${JSON.stringify(merged.quality.messagingTier)}`);
    }
    if (!GRAPH_ID.test(merged.wabaId)) fail('wabaId', 'must be a Graph id (digits)');
    if (!GRAPH_ID.test(merged.phoneNumberId)) fail('phoneNumberId', 'must be a Graph id (digits)');
    if (!DIGITS.test(merged.displayPhoneNumber))
      fail('displayPhoneNumber', 'must be the number as 7-15 digits (webhook metadata carries it so)');
    text('accessToken', merged.accessToken);
    text('appSecret', merged.appSecret);
    return { ...merged, accounts: [derivedAccount(merged, merged.rateLimits.throughputMps, merged.quality.messagingTier)] };
  }
  validateAccounts(input.accounts);
  const accounts = input.accounts.map((a) => ({ ...a, numbers: a.numbers.map((n) => ({ ...n })) }));
  const account = accounts[0] as SimAccountConfig;
  const number = account.numbers[0] as SimNumberConfig;
  const agree = (path: string, given: unknown, derived: unknown, from: string, secret = false): void => {
    if (given !== undefined && given !== derived) {
      fail(
        path,
        `${secret ? 'differs from' : `is ${JSON.stringify(given)} but`} ${from}${secret ? '' : ` is ${JSON.stringify(derived)}`}: give one or make them agree`,
      );
    }
  };
  agree('wabaId', input.wabaId, account.wabaId, 'accounts[0].wabaId');
  agree('accessToken', input.accessToken, account.accessToken, 'accounts[0].accessToken', true);
  agree('appSecret', input.appSecret, account.appSecret, 'accounts[0].appSecret', true);
  agree('phoneNumberId', input.phoneNumberId, number.phoneNumberId, 'accounts[0].numbers[0].phoneNumberId');
  agree('displayPhoneNumber', input.displayPhoneNumber, number.displayPhoneNumber, 'accounts[0].numbers[0].displayPhoneNumber');
  agree('rateLimits.throughputMps', input.rateLimits?.throughputMps, number.throughputMps, 'accounts[0].numbers[0].throughputMps');
  agree('quality.messagingTier', input.quality?.messagingTier, account.messagingLimit, 'accounts[0].messagingLimit');
  return {
    ...merged,
    accounts,
    wabaId: account.wabaId,
    accessToken: account.accessToken,
    appSecret: account.appSecret,
    phoneNumberId: number.phoneNumberId,
    displayPhoneNumber: number.displayPhoneNumber,
    rateLimits: { ...merged.rateLimits, throughputMps: number.throughputMps },
    quality: { ...merged.quality, messagingTier: account.messagingLimit },
  };
}

const GRAPH_ID = /^\d{1,20}$/;
const DIGITS = /^\d{7,15}$/;

function oneOf(path: string, value: unknown, allowed: readonly string[]): void {
  if (typeof value !== 'string' || !allowed.includes(value))
    fail(path, `must be one of ${allowed.join(', ')}, got ${JSON.stringify(value)}`);
}

function text(path: string, value: unknown): void {
  if (typeof value !== 'string' || value === '') fail(path, 'must be a non-empty string');
}

function validateAccounts(accounts: unknown): asserts accounts is SimAccountConfig[] {
  if (!Array.isArray(accounts) || accounts.length === 0) fail('accounts', 'must list at least one account');
  const ids = new Map<string, string>();
  const displays = new Map<string, string>();
  const portfolioLimits = new Map<string, { limit: string; path: string }>();
  const unique = (seen: Map<string, string>, value: string, path: string): void => {
    const earlier = seen.get(value);
    if (earlier !== undefined) fail(path, `repeats ${earlier} (${value})`);
    seen.set(value, path);
  };
  (accounts as Array<Record<string, unknown>>).forEach((a, i) => {
    const at = `accounts[${i}]`;
    if (typeof a !== 'object' || a === null) fail(at, 'must be an object');
    if (typeof a.wabaId !== 'string' || !GRAPH_ID.test(a.wabaId)) fail(`${at}.wabaId`, 'must be a Graph id (digits)');
    unique(ids, a.wabaId as string, `${at}.wabaId`);
    text(`${at}.accessToken`, a.accessToken);
    text(`${at}.appSecret`, a.appSecret);
    if (typeof a.portfolioId !== 'string' || !GRAPH_ID.test(a.portfolioId)) fail(`${at}.portfolioId`, 'must be a Graph id (digits)');
    oneOf(`${at}.messagingLimit`, a.messagingLimit, MESSAGING_LIMITS);
    const shared = portfolioLimits.get(a.portfolioId as string);
    if (shared === undefined) portfolioLimits.set(a.portfolioId as string, { limit: a.messagingLimit as string, path: at });
    else if (shared.limit !== a.messagingLimit) {
      fail(
        `${at}.messagingLimit`,
        `is ${String(a.messagingLimit)} but ${shared.path}, of the same portfolio, has ${shared.limit}: the limit is the portfolio's`,
      );
    }
    if (!Array.isArray(a.numbers) || a.numbers.length === 0) fail(`${at}.numbers`, 'must list at least one number');
    (a.numbers as Array<Record<string, unknown>>).forEach((n, j) => {
      const nat = `${at}.numbers[${j}]`;
      if (typeof n !== 'object' || n === null) fail(nat, 'must be an object');
      if (typeof n.phoneNumberId !== 'string' || !GRAPH_ID.test(n.phoneNumberId))
        fail(`${nat}.phoneNumberId`, 'must be a Graph id (digits)');
      unique(ids, n.phoneNumberId as string, `${nat}.phoneNumberId`);
      if (typeof n.displayPhoneNumber !== 'string' || !DIGITS.test(n.displayPhoneNumber)) {
        fail(`${nat}.displayPhoneNumber`, 'must be the number as 7-15 digits (webhook metadata carries it so)');
      }
      unique(displays, n.displayPhoneNumber as string, `${nat}.displayPhoneNumber`);
      text(`${nat}.verifiedName`, n.verifiedName);
      if (typeof n.throughputMps !== 'number' || !(n.throughputMps > 0)) fail(`${nat}.throughputMps`, 'must be > 0');
      oneOf(`${nat}.status`, n.status, PHONE_NUMBER_STATUSES);
      oneOf(`${nat}.nameStatus`, n.nameStatus, NAME_STATUSES);
      if (n.qualityRating !== undefined) oneOf(`${nat}.qualityRating`, n.qualityRating, STARTING_RATINGS);
    });
  });
}
