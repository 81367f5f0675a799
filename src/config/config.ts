import { isIP } from 'node:net';
import { z } from 'zod';
import { parseDuration } from '../core/duration.js';
import type { Policy } from '../core/policy.js';
import { MINUTE } from '../core/time.js';
import { accountsFromFile, readFileUtf8, singleNumberAccounts, type ReadFile, type WhatsAppAccount } from './accounts.js';
import { commaList } from './comma-list.js';
import { ConfigError } from './config-error.js';
import { policyEnvSchema, policyFromEnv } from './policy-env.js';

export { ConfigError } from './config-error.js';
export type { WhatsAppAccount } from './accounts.js';

/** Meta's Graph API; the version is configuration, never baked into a URL. */
export const DEFAULT_API_BASE_URL = 'https://graph.facebook.com';
export const DEFAULT_API_VERSION = 'v24.0';

const list = z.string().transform(commaList);
const port = z.coerce.number().int().min(0).max(65_535);

const PROXY_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

/** One trusted proxy: an address, a CIDR range (`10.0.0.0/8`, `fd00::/8`) or one of proxy-addr's names. */
function proxyEntryOk(entry: string): boolean {
  if (PROXY_NAMES.includes(entry) || isIP(entry) !== 0) return true;
  const m = /^([^/]+)\/(\d{1,3})$/.exec(entry);
  const family = m?.[1] === undefined ? 0 : isIP(m[1]);
  return family !== 0 && Number(m?.[2]) <= (family === 4 ? 32 : 128);
}

/** PACER_TRUST_PROXY: `true`/`false`, a hop count, or a comma-separated list of addresses and CIDRs (as Fastify's trustProxy). */
const trustProxy = z.string().transform((raw, ctx): boolean | number | string[] => {
  const value = raw.trim();
  if (value === 'true' || value === 'false') return value === 'true';
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    if (hops <= 32) return hops;
  } else {
    const entries = value
      .split(',')
      .map((x) => x.trim())
      .filter((x) => x !== '');
    const bad = entries.filter((x) => !proxyEntryOk(x));
    if (entries.length > 0 && bad.length === 0) return entries;
    if (bad.length > 0) {
      ctx.addIssue({
        code: 'custom',
        message: `${bad.map((x) => JSON.stringify(x)).join(', ')} is not an IP address, a CIDR range (like 10.0.0.0/8) or one of ${PROXY_NAMES.join('/')}; expected true, false, a hop count (0-32) or a comma-separated list of the proxies' addresses`,
      });
      return z.NEVER;
    }
  }
  ctx.addIssue({
    code: 'custom',
    message: "expected true, false, a hop count (0-32) or a comma-separated list of the proxies' addresses or CIDR ranges",
  });
  return z.NEVER;
});

/** How often `serve` syncs templates from the business account: a duration of at least a minute, or `off`. */
const syncEvery = z.string().transform((raw, ctx): number | null => {
  if (raw.trim() === 'off') return null;
  const ms = parseDuration(raw);
  if (ms !== null && ms >= MINUTE) return ms;
  ctx.addIssue({ code: 'custom', message: 'a duration like 30m, 1h or 1d (at least 1m), or off' });
  return z.NEVER;
});

/** How long an API Idempotency-Key is kept: a duration from an hour to 30 days. */
const idempotencyTtl = z.string().transform((raw, ctx): number => {
  const ms = parseDuration(raw);
  if (ms !== null && ms >= 60 * MINUTE && ms <= 30 * 24 * 60 * MINUTE) return ms;
  ctx.addIssue({ code: 'custom', message: 'a duration like 24h or 7d, from 1h to 30d' });
  return z.NEVER;
});

/** Environment variables, as named in the interface contract (docs/configuration.md lists them). */
const envSchema = z.object({
  WHATSAPP_ACCESS_TOKEN: z.string().min(1).optional(),
  WHATSAPP_PHONE_NUMBER_ID: z.string().regex(/^\d+$/, 'digits only').optional(),
  WHATSAPP_BUSINESS_ACCOUNT_ID: z.string().regex(/^\d+$/, 'digits only').optional(),
  WHATSAPP_APP_SECRET: list.optional(),
  PACER_ACCOUNTS_FILE: z.string().min(1).optional(),
  WHATSAPP_VERIFY_TOKEN: z.string().min(1).optional(),
  WHATSAPP_API_BASE_URL: z.url().default(DEFAULT_API_BASE_URL),
  WHATSAPP_API_VERSION: z
    .string()
    .regex(/^v\d+\.\d+$/, 'like v24.0')
    .default(DEFAULT_API_VERSION),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'a postgres:// URL')
    .optional(),
  PACER_DB_SCHEMA: z
    .string()
    .regex(/^[a-z_][a-z0-9_]{0,62}$/, 'a lower-case SQL identifier')
    .default('public'),
  PACER_DB_POOL_SIZE: z.coerce.number().int().min(1).max(500).default(10),
  PACER_LEASE_MS: z.coerce.number().int().min(1000).max(3_600_000).default(60_000),
  PACER_WORKER_MPS: z.coerce.number().int().min(1).max(10_000).default(80),
  PACER_WORKER_PORT: port.default(0),
  PACER_DATA_DIR: z.string().min(1).default('./data'),
  PACER_HOST: z.string().min(1).default('127.0.0.1'),
  PACER_PORT: port.default(3000),
  PACER_ADMIN_TOKEN: z.string().min(16, 'at least 16 characters').optional(),
  PACER_IDEMPOTENCY_TTL: idempotencyTtl.default(24 * 60 * MINUTE),
  PACER_MODE: z.enum(['production', 'development']).default('production'),
  PACER_LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('warn'),
  ...policyEnvSchema,
  PACER_DEMO_AUDIENCE: z.coerce.number().int().min(100).optional(),
  PACER_DEMO_DIR: z.string().min(1).optional(),
  PACER_DEMO_LOG: z.string().min(1).optional(),
  PACER_TRUST_PROXY: trustProxy.default(false),
  PACER_WEBHOOK_INFLIGHT_MB: z.coerce.number().int().min(3, 'at least 3 (one largest webhook body)').max(4096).default(32),
  PACER_WEBHOOK_BODY_TIMEOUT_MS: z.coerce.number().int().min(1000).max(120_000).default(10_000),
  PACER_TEMPLATE_SYNC_EVERY: syncEvery.default(60 * MINUTE),
  PACER_SENDER_SYNC_EVERY: syncEvery.default(15 * MINUTE),
});

/** Every variable the configuration reads (the docs test checks each is documented). */
export const CONFIG_VARIABLES: readonly string[] = Object.keys(envSchema.shape);

/** Never echoed in an error message: secrets, and URLs that may carry a password. */
const SECRET_VARIABLES = new Set([
  'WHATSAPP_ACCESS_TOKEN',
  'WHATSAPP_APP_SECRET',
  'WHATSAPP_VERIFY_TOKEN',
  'DATABASE_URL',
  'PACER_ADMIN_TOKEN',
]);

export interface Config {
  whatsapp: {
    /** Every account sent from: those of PACER_ACCOUNTS_FILE, else `default` from the single-number variables (none if unset). */
    accounts: readonly WhatsAppAccount[];
    /** The first account's token and id (with an accounts file); kept for callers that know one account. */
    accessToken: string | null;
    /** The number sent from when a campaign or a one-off message names none. */
    phoneNumberId: string | null;
    businessAccountId: string | null;
    /** Every account's app secrets together: one webhook endpoint checks signatures for all. */
    appSecrets: readonly string[];
    verifyToken: string | null;
    apiBaseUrl: string;
    apiVersion: string;
  };
  storage: { databaseUrl: string | null; dataDir: string; schema: string; poolSize: number };
  /**
   * Dispatch: how long a claimed row is leased, this process's own ceiling on sends a second, and
   * where `pacer worker` serves its health endpoint on loopback (0 picks a free port).
   */
  worker: { leaseMs: number; mps: number; port: number };
  http: {
    host: string;
    port: number;
    adminToken: string | null;
    /** How long the REST API keeps an Idempotency-Key and its first answer (PACER_IDEMPOTENCY_TTL). */
    idempotencyTtlMs: number;
    logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  };
  mode: 'production' | 'development';
  policy: Policy;
  /** `pacer demo` (and `npm run demo`) when its flags are not given: audience size and folder; `log` prints its server's errors. */
  demo: { audience: number | null; dir: string | null; log: boolean };
  /** `serve` syncs templates from WHATSAPP_BUSINESS_ACCOUNT_ID this often (null: only at start and on webhooks). */
  templates: { syncEveryMs: number | null };
  /** `serve` and `pacer worker` read every number's health from Meta this often (null: only at start and on webhooks). */
  senders: { syncEveryMs: number | null };
  /**
   * The HTTP edge behind a proxy and under load: whose X-Forwarded-* headers to believe, and the
   * bounds on webhook bodies being received (bytes across all requests at once, time for one body).
   */
  edge: { trustProxy: boolean | number | readonly string[]; webhookInflightBytes: number; webhookBodyTimeoutMs: number };
}

export interface LoadConfigOptions {
  /** How PACER_ACCOUNTS_FILE is read (default: synchronously from disk, as UTF-8). */
  readFile?: ReadFile;
}

/** Reads the environment (and the accounts file it names) once at start-up; the result is frozen and passed down. */
export function loadConfig(env: Readonly<Record<string, string | undefined>>, options: LoadConfigOptions = {}): Config {
  const given = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(given);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => {
      const name = String(i.path[0] ?? '');
      const value = given[name];
      const got =
        value === undefined || SECRET_VARIABLES.has(name) ? '' : ` (got "${value.length > 60 ? `${value.slice(0, 60)}…` : value}")`;
      return `${i.path.join('.')}: ${i.message}${got}`;
    });
    throw new ConfigError(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  }
  const e = parsed.data;
  const single = {
    accessToken: e.WHATSAPP_ACCESS_TOKEN ?? null,
    phoneNumberId: e.WHATSAPP_PHONE_NUMBER_ID ?? null,
    businessAccountId: e.WHATSAPP_BUSINESS_ACCOUNT_ID ?? null,
    appSecrets: e.WHATSAPP_APP_SECRET ?? [],
  };
  const file = e.PACER_ACCOUNTS_FILE;
  const accounts =
    file === undefined ? singleNumberAccounts(single) : accountsFromFile(file, single, env, options.readFile ?? readFileUtf8);
  const config: Config = {
    whatsapp: {
      accounts,
      accessToken: file === undefined ? single.accessToken : (accounts[0]?.accessToken ?? null),
      phoneNumberId: single.phoneNumberId,
      businessAccountId: file === undefined ? single.businessAccountId : (accounts[0]?.businessAccountId ?? null),
      appSecrets: file === undefined ? single.appSecrets : [...new Set(accounts.flatMap((a) => a.appSecrets))],
      verifyToken: e.WHATSAPP_VERIFY_TOKEN ?? null,
      apiBaseUrl: e.WHATSAPP_API_BASE_URL.replace(/\/+$/, ''),
      apiVersion: e.WHATSAPP_API_VERSION,
    },
    storage: { databaseUrl: e.DATABASE_URL ?? null, dataDir: e.PACER_DATA_DIR, schema: e.PACER_DB_SCHEMA, poolSize: e.PACER_DB_POOL_SIZE },
    worker: { leaseMs: e.PACER_LEASE_MS, mps: e.PACER_WORKER_MPS, port: e.PACER_WORKER_PORT },
    http: {
      host: e.PACER_HOST,
      port: e.PACER_PORT,
      adminToken: e.PACER_ADMIN_TOKEN ?? null,
      idempotencyTtlMs: e.PACER_IDEMPOTENCY_TTL,
      logLevel: e.PACER_LOG_LEVEL,
    },
    mode: e.PACER_MODE,
    policy: policyFromEnv(e),
    demo: { audience: e.PACER_DEMO_AUDIENCE ?? null, dir: e.PACER_DEMO_DIR ?? null, log: e.PACER_DEMO_LOG !== undefined },
    templates: { syncEveryMs: e.PACER_TEMPLATE_SYNC_EVERY },
    senders: { syncEveryMs: e.PACER_SENDER_SYNC_EVERY },
    edge: {
      trustProxy: e.PACER_TRUST_PROXY,
      webhookInflightBytes: e.PACER_WEBHOOK_INFLIGHT_MB * 1024 * 1024,
      webhookBodyTimeoutMs: e.PACER_WEBHOOK_BODY_TIMEOUT_MS,
    },
  };
  return deepFreeze(config);
}

/** The configuration with every secret replaced, for `pacer config print` and logs. */
export function redactConfig(config: Config): unknown {
  const hide = (v: string | null) => (v === null ? null : `<redacted ${v.length} chars>`);
  return {
    ...config,
    whatsapp: {
      ...config.whatsapp,
      accounts: config.whatsapp.accounts.map((a) => ({ ...a, accessToken: hide(a.accessToken), appSecrets: a.appSecrets.map(hide) })),
      accessToken: hide(config.whatsapp.accessToken),
      appSecrets: config.whatsapp.appSecrets.map(hide),
      verifyToken: hide(config.whatsapp.verifyToken),
    },
    storage: { ...config.storage, databaseUrl: config.storage.databaseUrl?.replace(/\/\/([^:@/]+):([^@/]+)@/, '//$1:<redacted>@') ?? null },
    http: { ...config.http, adminToken: hide(config.http.adminToken) },
  };
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}
