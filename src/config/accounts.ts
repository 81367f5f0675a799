import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { commaList } from './comma-list.js';
import { ConfigError } from './config-error.js';
import { locateJsonSyntaxError } from './json-syntax-error.js';

/** One WhatsApp Business Account Pacer sends from, its secrets read from the environment. */
export interface WhatsAppAccount {
  /** Unique in the installation ([a-z0-9_-]); `default` for the single-number variables. */
  name: string;
  /** The WABA id (digits); null only when the single-number variables leave it out. */
  businessAccountId: string | null;
  /** The system-user token; null only when the single-number variables leave it out. */
  accessToken: string | null;
  /** The secrets that may sign this account's webhooks (several during a rotation). */
  appSecrets: readonly string[];
  /** Accounts naming the same portfolio share one messaging limit; the numbers of one account always share it. */
  portfolio: string;
  /** The numbers sent from; null: every number the account has. */
  phoneNumberIds: readonly string[] | null;
}

export const DEFAULT_ACCOUNT_NAME = 'default';

/** Reads the accounts file as text; throws (as node:fs does) when it cannot. */
export type ReadFile = (path: string) => string;
export const readFileUtf8: ReadFile = (path) => readFileSync(path, 'utf8');

export type Environment = Readonly<Record<string, string | undefined>>;

/** WHATSAPP_ACCESS_TOKEN, WHATSAPP_PHONE_NUMBER_ID, WHATSAPP_BUSINESS_ACCOUNT_ID and WHATSAPP_APP_SECRET, validated. */
export interface SingleNumberVariables {
  accessToken: string | null;
  phoneNumberId: string | null;
  businessAccountId: string | null;
  appSecrets: readonly string[];
}

/** Without an accounts file the single-number variables describe one account, or none when none is set. */
export function singleNumberAccounts(v: SingleNumberVariables): WhatsAppAccount[] {
  if (v.accessToken === null && v.phoneNumberId === null && v.businessAccountId === null && v.appSecrets.length === 0) return [];
  return [
    {
      name: DEFAULT_ACCOUNT_NAME,
      businessAccountId: v.businessAccountId,
      accessToken: v.accessToken,
      appSecrets: v.appSecrets,
      portfolio: v.businessAccountId ?? v.phoneNumberId ?? DEFAULT_ACCOUNT_NAME,
      phoneNumberIds: v.phoneNumberId === null ? null : [v.phoneNumberId],
    },
  ];
}

// Upper case only: a token or app secret pasted where its variable's name belongs fails here, so it is never echoed as a "name".
const VARIABLE_NAME = /^[A-Z_][A-Z0-9_]{0,127}$/;
const LABEL = /^[a-z0-9_-]{1,64}$/;
const DIGITS = /^\d{1,32}$/;

const text = (expected: string, pattern: RegExp) =>
  z
    .string({ error: (i) => (i.input === undefined ? `required: ${expected}` : `expected ${expected}`) })
    .regex(pattern, `expected ${expected}`);

/** A secret written into the file is refused: secrets come only from the environment. */
const literalSecret = (what: string, key: string) =>
  z
    .unknown()
    .refine(
      () => false,
      `secrets come only from the environment, never from this file: put the ${what} in an environment variable and name it in ${key}`,
    )
    .optional();

const variableName = (holding: string, example: string) =>
  text(
    `the name of the environment variable holding the ${holding} (upper-case letters, digits and _, like ${example}), not the ${holding} itself`,
    VARIABLE_NAME,
  );

const ACCOUNT_KEYS = ['name', 'businessAccountId', 'accessTokenEnv', 'appSecretEnv', 'portfolio', 'phoneNumberIds'] as const;

const accountSchema = z.strictObject(
  {
    name: text('a lower-case name of letters, digits, - and _ (like "eu"), unique in the file', LABEL),
    businessAccountId: text("the WhatsApp Business Account's id (digits)", DIGITS),
    accessTokenEnv: variableName('system-user token', 'EU_WHATSAPP_ACCESS_TOKEN'),
    appSecretEnv: variableName('app secret', 'EU_WHATSAPP_APP_SECRET').optional(),
    portfolio: text('a lower-case portfolio name of letters, digits, - and _ (like "acme")', LABEL).optional(),
    phoneNumberIds: z
      .array(text('a phone number id (digits; not the phone number)', DIGITS), { error: 'expected a list of phone number ids' })
      .min(1, 'expected at least one phone number id (leave phoneNumberIds out to send from every number of the account)')
      .optional(),
    accessToken: literalSecret('token', 'accessTokenEnv'),
    appSecret: literalSecret('app secret', 'appSecretEnv'),
    appSecrets: literalSecret('app secrets', 'appSecretEnv'),
  },
  {
    error: `expected an account, an object with ${ACCOUNT_KEYS.slice(0, 3).join(', ')} and optionally ${ACCOUNT_KEYS.slice(3).join(', ')}`,
  },
);

const fileSchema = z.strictObject(
  { accounts: z.array(accountSchema, { error: 'expected a list of accounts' }).min(1, 'expected at least one account') },
  { error: 'expected an object like { "accounts": [ … ] }' },
);

type AccountEntry = z.infer<typeof accountSchema>;

/** `accounts[1].accessTokenEnv`, as a reader of the file would point at it. */
function pathText(path: readonly PropertyKey[]): string {
  const text = path.map((k, n) => (typeof k === 'number' ? `[${k}]` : n === 0 ? String(k) : `.${String(k)}`)).join('');
  return text === '' ? 'the top level' : text;
}

function issueText(issue: z.core.$ZodIssue): string {
  if (issue.code !== 'unrecognized_keys') return `${pathText(issue.path)}: ${issue.message}`;
  const known = issue.path.length === 0 ? ['accounts'] : ACCOUNT_KEYS;
  const keys = issue.keys.map((k) => JSON.stringify(k)).join(', ');
  return `${pathText(issue.path)}: unknown key${issue.keys.length > 1 ? 's' : ''} ${keys} (the keys are ${known.join(', ')})`;
}

/** A referenced variable's value, or null when it is unset or blank. */
function variable(env: Environment, name: string): string | null {
  const value = env[name];
  return value === undefined || value.trim() === '' ? null : value;
}

function readProblem(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'ENOENT') return 'no such file';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'EISDIR') return 'it is a folder, not a file';
  return error instanceof Error ? error.message : String(error);
}

/** Checks what the schema cannot see (uniqueness, the referenced variables) and reads the secrets. */
function resolveAccounts(
  entries: readonly AccountEntry[],
  env: Environment,
  sharedSecrets: readonly string[],
  problems: string[],
): WhatsAppAccount[] {
  const firstWith = new Map<string, number>();
  const unique = (kind: string, value: string, n: number, complaint: (first: number) => string) => {
    const first = firstWith.get(`${kind}:${value}`);
    if (first === undefined) firstWith.set(`${kind}:${value}`, n);
    else problems.push(complaint(first));
  };
  return entries.map((entry, n) => {
    const at = `accounts[${n}]`;
    unique('name', entry.name, n, (first) => `${at}.name: "${entry.name}" is already the name of accounts[${first}]`);
    unique(
      'waba',
      entry.businessAccountId,
      n,
      (first) => `${at}.businessAccountId: ${entry.businessAccountId} is already accounts[${first}]`,
    );
    for (const id of entry.phoneNumberIds ?? []) {
      unique('number', id, n, (first) =>
        first === n ? `${at}.phoneNumberIds: ${id} is listed twice` : `${at}.phoneNumberIds: ${id} already belongs to accounts[${first}]`,
      );
    }
    const accessToken = variable(env, entry.accessTokenEnv);
    if (accessToken === null)
      problems.push(`${at}.accessTokenEnv: ${entry.accessTokenEnv} is not set (or is empty); set it to the account's system-user token`);
    let own: string[] = [];
    if (entry.appSecretEnv !== undefined) {
      own = commaList(variable(env, entry.appSecretEnv) ?? '');
      if (own.length === 0)
        problems.push(
          `${at}.appSecretEnv: ${entry.appSecretEnv} is not set (or is empty); set it to the app secret (comma-separated during a rotation)`,
        );
    }
    return {
      name: entry.name,
      businessAccountId: entry.businessAccountId,
      accessToken,
      appSecrets: [...new Set([...own, ...sharedSecrets])],
      portfolio: entry.portfolio ?? entry.businessAccountId,
      phoneNumberIds: entry.phoneNumberIds ?? null,
    };
  });
}

/**
 * The accounts of PACER_ACCOUNTS_FILE, with their secrets from the variables the file names.
 * WHATSAPP_APP_SECRET (one app serving every account) signs for all of them; WHATSAPP_PHONE_NUMBER_ID
 * stays the default sending number. Every problem found is reported at once, naming the file and the
 * place in it, never a secret's value.
 */
export function accountsFromFile(
  file: string,
  single: SingleNumberVariables,
  env: Environment,
  readFile: ReadFile = readFileUtf8,
): WhatsAppAccount[] {
  const problems: string[] = [];
  const inFile = (problem: string) => `PACER_ACCOUNTS_FILE (${file}): ${problem}`;
  const refuse = (): never => {
    throw new ConfigError(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  };
  if (single.accessToken !== null || single.businessAccountId !== null) {
    problems.push(
      `WHATSAPP_ACCESS_TOKEN and WHATSAPP_BUSINESS_ACCOUNT_ID must not be set with PACER_ACCOUNTS_FILE: put each account's businessAccountId, and the name of the variable holding its token (accessTokenEnv), in ${file}`,
    );
  }

  let content: string;
  try {
    content = readFile(file).replace(/^\uFEFF/, '');
  } catch (error) {
    problems.push(`PACER_ACCOUNTS_FILE: cannot read ${file} (${readProblem(error)})`);
    return refuse();
  }
  let raw: unknown;
  try {
    raw = JSON.parse(content);
  } catch {
    const where = locateJsonSyntaxError(content);
    problems.push(
      inFile(where === null ? 'not valid JSON' : `not valid JSON at line ${where.line}, column ${where.column}: ${where.problem}`),
    );
    return refuse();
  }
  const parsed = fileSchema.safeParse(raw);
  if (!parsed.success) {
    problems.push(...parsed.error.issues.map((issue) => inFile(issueText(issue))));
    return refuse();
  }

  const fileProblems: string[] = [];
  const accounts = resolveAccounts(parsed.data.accounts, env, single.appSecrets, fileProblems);
  problems.push(...fileProblems.map(inFile));
  const defaultNumber = single.phoneNumberId;
  if (defaultNumber !== null && accounts.every((a) => a.phoneNumberIds !== null && !a.phoneNumberIds.includes(defaultNumber))) {
    problems.push(
      `WHATSAPP_PHONE_NUMBER_ID: ${defaultNumber} is the default sending number but no account in ${file} lists it in phoneNumberIds`,
    );
  }
  return problems.length > 0 ? refuse() : accounts;
}
