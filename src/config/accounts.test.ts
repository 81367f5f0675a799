import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { ConfigError, loadConfig, redactConfig, type WhatsAppAccount } from './config.js';

const EU_TOKEN = 'EAAG-eu-token-0001';
const US_TOKEN = 'EAAG-us-token-0002';
const SECRETS = {
  EU_WHATSAPP_ACCESS_TOKEN: EU_TOKEN,
  US_WHATSAPP_ACCESS_TOKEN: US_TOKEN,
  EU_WHATSAPP_APP_SECRET: 'eu-old-5a5a, eu-new-6b6b',
};

const eu = {
  name: 'eu',
  businessAccountId: '102290129340398',
  accessTokenEnv: 'EU_WHATSAPP_ACCESS_TOKEN',
  appSecretEnv: 'EU_WHATSAPP_APP_SECRET',
  portfolio: 'acme',
  phoneNumberIds: ['106540352242922'],
};
const us = { name: 'us', businessAccountId: '203391230451409', accessTokenEnv: 'US_WHATSAPP_ACCESS_TOKEN' };

/** Reads only the files given, failing for any other as node:fs does. */
const reader =
  (files: Record<string, string>) =>
  (file: string): string => {
    const content = files[file];
    if (content === undefined) throw Object.assign(new Error(`ENOENT: no such file or directory, open '${file}'`), { code: 'ENOENT' });
    return content;
  };

const withFile = (content: unknown, env: Record<string, string> = {}) =>
  loadConfig(
    { PACER_ACCOUNTS_FILE: 'conf/accounts.json', ...SECRETS, ...env },
    { readFile: reader({ 'conf/accounts.json': typeof content === 'string' ? content : JSON.stringify(content, null, 2) }) },
  );

function refusal(load: () => unknown): string {
  try {
    load();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('the configuration was accepted');
}

describe('accounts from the single-number variables', () => {
  it('makes one account named default from all four', () => {
    const c = loadConfig({
      WHATSAPP_ACCESS_TOKEN: 'EAAG-single',
      WHATSAPP_PHONE_NUMBER_ID: '106540352242922',
      WHATSAPP_BUSINESS_ACCOUNT_ID: '102290129340398',
      WHATSAPP_APP_SECRET: 'old, new',
    });
    expect(c.whatsapp.accounts).toEqual<WhatsAppAccount[]>([
      {
        name: 'default',
        businessAccountId: '102290129340398',
        accessToken: 'EAAG-single',
        appSecrets: ['old', 'new'],
        portfolio: '102290129340398',
        phoneNumberIds: ['106540352242922'],
      },
    ]);
    expect(c.whatsapp).toMatchObject({
      accessToken: 'EAAG-single',
      phoneNumberId: '106540352242922',
      businessAccountId: '102290129340398',
      appSecrets: ['old', 'new'],
    });
    expect(Object.isFrozen(c.whatsapp.accounts[0]?.phoneNumberIds)).toBe(true);
  });

  it('takes the portfolio from the account id, else the number id, else default', () => {
    expect(loadConfig({ WHATSAPP_PHONE_NUMBER_ID: '106540352242922' }).whatsapp.accounts).toEqual([
      {
        name: 'default',
        businessAccountId: null,
        accessToken: null,
        appSecrets: [],
        portfolio: '106540352242922',
        phoneNumberIds: ['106540352242922'],
      },
    ]);
    expect(loadConfig({ WHATSAPP_APP_SECRET: 's1' }).whatsapp.accounts).toEqual([
      { name: 'default', businessAccountId: null, accessToken: null, appSecrets: ['s1'], portfolio: 'default', phoneNumberIds: null },
    ]);
  });

  it('has no account when none of them is set (empty counts as unset)', () => {
    expect(loadConfig({}).whatsapp.accounts).toEqual([]);
    expect(loadConfig({ WHATSAPP_ACCESS_TOKEN: '', PACER_PORT: '3001' }).whatsapp.accounts).toEqual([]);
  });
});

describe('accounts from PACER_ACCOUNTS_FILE', () => {
  it('reads two accounts, their secrets from the variables they name, the shared app secret added to each', () => {
    const c = withFile({ accounts: [eu, us] }, { WHATSAPP_APP_SECRET: 'shared-7c7c', WHATSAPP_PHONE_NUMBER_ID: '106540352242922' });
    expect(c.whatsapp.accounts).toEqual<WhatsAppAccount[]>([
      {
        name: 'eu',
        businessAccountId: '102290129340398',
        accessToken: EU_TOKEN,
        appSecrets: ['eu-old-5a5a', 'eu-new-6b6b', 'shared-7c7c'],
        portfolio: 'acme',
        phoneNumberIds: ['106540352242922'],
      },
      {
        name: 'us',
        businessAccountId: '203391230451409',
        accessToken: US_TOKEN,
        appSecrets: ['shared-7c7c'],
        portfolio: '203391230451409',
        phoneNumberIds: null,
      },
    ]);
    // Callers that know one account see the first; the webhook endpoint sees every secret.
    expect(c.whatsapp).toMatchObject({
      accessToken: EU_TOKEN,
      businessAccountId: '102290129340398',
      phoneNumberId: '106540352242922',
      appSecrets: ['eu-old-5a5a', 'eu-new-6b6b', 'shared-7c7c'],
    });
    expect(Object.isFrozen(c.whatsapp.accounts[1])).toBe(true);
  });

  it('lets accounts share a portfolio, and reads without an app secret at all', () => {
    const c = withFile({ accounts: [eu, { ...us, portfolio: 'acme' }] });
    expect(c.whatsapp.accounts.map((a) => [a.name, a.portfolio, a.appSecrets.length])).toEqual([
      ['eu', 'acme', 2],
      ['us', 'acme', 0],
    ]);
  });

  it('reads the file from disk by default, and names the file it cannot find', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'pacer-accounts-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const file = path.join(dir, 'accounts.json');
    writeFileSync(file, `\uFEFF${JSON.stringify({ accounts: [us] })}`);
    expect(loadConfig({ PACER_ACCOUNTS_FILE: file, ...SECRETS }).whatsapp.accounts.map((a) => a.name)).toEqual(['us']);

    const missing = path.join(dir, 'nowhere.json');
    expect(refusal(() => loadConfig({ PACER_ACCOUNTS_FILE: missing, ...SECRETS }))).toBe(
      `Invalid configuration:\n  PACER_ACCOUNTS_FILE: cannot read ${missing} (no such file)`,
    );
    expect(refusal(() => loadConfig({ PACER_ACCOUNTS_FILE: dir }))).toContain(`cannot read ${dir} (it is a folder, not a file)`);
  });

  it('points at the line and column of a JSON syntax error', () => {
    const text = '{\n  "accounts": [\n    { "name": "eu", }\n  ]\n}\n';
    expect(refusal(() => withFile(text))).toBe(
      'Invalid configuration:\n  PACER_ACCOUNTS_FILE (conf/accounts.json): not valid JSON at line 3, column 21: ' +
        "expected a property name in double quotes, found '}'",
    );
  });

  it('refuses an unknown key, naming where it is and the keys there are', () => {
    expect(refusal(() => withFile({ accounts: [eu, { ...us, phoneNumbers: ['1'] }] }))).toContain(
      'PACER_ACCOUNTS_FILE (conf/accounts.json): accounts[1]: unknown key "phoneNumbers" ' +
        '(the keys are name, businessAccountId, accessTokenEnv, appSecretEnv, portfolio, phoneNumberIds)',
    );
    expect(refusal(() => withFile({ accounts: [us], version: 2 }))).toContain(
      'the top level: unknown key "version" (the keys are accounts)',
    );
  });

  it('refuses a secret written into the file, naming the …Env key to use and never the secret', () => {
    const message = refusal(() =>
      withFile({ accounts: [us, { ...eu, accessToken: 'EAAG-literal-9999', appSecret: 'literal-app-secret' }] }),
    );
    expect(message).toContain(
      'accounts[1].accessToken: secrets come only from the environment, never from this file: ' +
        'put the token in an environment variable and name it in accessTokenEnv',
    );
    expect(message).toContain('accounts[1].appSecret: secrets come only from the environment');
    expect(message).toContain('name it in appSecretEnv');
    expect(message).not.toContain('EAAG-literal-9999');
    expect(message).not.toContain('literal-app-secret');
  });

  it('names the field of every schema error', () => {
    const { accessTokenEnv: _, ...noToken } = us;
    const message = refusal(() =>
      withFile({
        accounts: [
          { ...eu, name: 'EU West', phoneNumberIds: ['+1 555 0100'] },
          noToken,
          { ...us, name: 'x', accessTokenEnv: 'EAAGpastedToken' },
        ],
      }),
    );
    expect(message).toContain('accounts[0].name: expected a lower-case name of letters, digits, - and _');
    expect(message).toContain('accounts[0].phoneNumberIds[0]: expected a phone number id (digits; not the phone number)');
    expect(message).toContain('accounts[1].accessTokenEnv: required: the name of the environment variable holding the system-user token');
    expect(message).toContain('accounts[2].accessTokenEnv: expected the name of the environment variable');
    expect(message).not.toContain('EAAGpastedToken');
    expect(refusal(() => withFile({ accounts: [] }))).toContain('accounts: expected at least one account');
    expect(refusal(() => withFile([eu]))).toContain('the top level: expected an object like { "accounts": [ … ] }');
    expect(refusal(() => withFile({ accounts: [{ ...us, phoneNumberIds: [] }] }))).toContain(
      'accounts[0].phoneNumberIds: expected at least one phone number id',
    );
  });

  it('names an unset or empty referenced variable, never a value', () => {
    const message = refusal(() => withFile({ accounts: [eu, us] }, { US_WHATSAPP_ACCESS_TOKEN: '', EU_WHATSAPP_APP_SECRET: ' , ' }));
    expect(message).toContain(
      "PACER_ACCOUNTS_FILE (conf/accounts.json): accounts[1].accessTokenEnv: US_WHATSAPP_ACCESS_TOKEN is not set (or is empty); set it to the account's system-user token",
    );
    expect(message).toContain('accounts[0].appSecretEnv: EU_WHATSAPP_APP_SECRET is not set (or is empty)');
    expect(message).not.toContain(EU_TOKEN);
    expect(
      refusal(() => loadConfig({ PACER_ACCOUNTS_FILE: 'a.json' }, { readFile: reader({ 'a.json': JSON.stringify({ accounts: [eu] }) }) })),
    ).toContain('accounts[0].accessTokenEnv: EU_WHATSAPP_ACCESS_TOKEN is not set');
  });

  it('refuses a name, an account id or a number given twice', () => {
    const message = refusal(() =>
      withFile({ accounts: [eu, { ...us, name: 'eu' }, { ...us, name: 'us2', phoneNumberIds: ['106540352242922', '7', '7'] }] }),
    );
    expect(message).toContain('accounts[1].name: "eu" is already the name of accounts[0]');
    expect(message).toContain('accounts[2].businessAccountId: 203391230451409 is already accounts[1]');
    expect(message).toContain('accounts[2].phoneNumberIds: 106540352242922 already belongs to accounts[0]');
    expect(message).toContain('accounts[2].phoneNumberIds: 7 is listed twice');
  });

  it('refuses the single-account token and id beside the file, naming both, and never echoes the token', () => {
    const singles: Record<string, string>[] = [
      { WHATSAPP_ACCESS_TOKEN: 'EAAG-single-3333' },
      { WHATSAPP_BUSINESS_ACCOUNT_ID: '102290129340398' },
    ];
    for (const env of singles) {
      const message = refusal(() => withFile({ accounts: [us] }, env));
      expect(message).toBe(
        'Invalid configuration:\n  WHATSAPP_ACCESS_TOKEN and WHATSAPP_BUSINESS_ACCOUNT_ID must not be set with PACER_ACCOUNTS_FILE: ' +
          "put each account's businessAccountId, and the name of the variable holding its token (accessTokenEnv), in conf/accounts.json",
      );
    }
  });

  it('refuses a default number that no account sends from when every account lists its numbers', () => {
    expect(refusal(() => withFile({ accounts: [eu] }, { WHATSAPP_PHONE_NUMBER_ID: '999' }))).toContain(
      'WHATSAPP_PHONE_NUMBER_ID: 999 is the default sending number but no account in conf/accounts.json lists it in phoneNumberIds',
    );
    // An account sending from all its numbers may own it.
    expect(withFile({ accounts: [eu, us] }, { WHATSAPP_PHONE_NUMBER_ID: '999' }).whatsapp.phoneNumberId).toBe('999');
  });
});

describe('redactConfig with accounts', () => {
  it('hides every token and app secret of every account, and shows the rest', () => {
    const c = withFile({ accounts: [eu, us] }, { WHATSAPP_APP_SECRET: 'shared-7c7c', WHATSAPP_VERIFY_TOKEN: 'verify-8d8d' });
    const printed = JSON.stringify(redactConfig(c));
    for (const secret of [EU_TOKEN, US_TOKEN, 'eu-old-5a5a', 'eu-new-6b6b', 'shared-7c7c', 'verify-8d8d'])
      expect(printed).not.toContain(secret);
    const shown = redactConfig(c) as { whatsapp: { accounts: unknown[] } };
    expect(shown.whatsapp.accounts[0]).toEqual({
      name: 'eu',
      businessAccountId: '102290129340398',
      accessToken: `<redacted ${EU_TOKEN.length} chars>`,
      appSecrets: ['<redacted 11 chars>', '<redacted 11 chars>', '<redacted 11 chars>'],
      portfolio: 'acme',
      phoneNumberIds: ['106540352242922'],
    });
  });
});
