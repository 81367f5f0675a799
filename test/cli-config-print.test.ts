import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import { DAY } from '../src/core/time.js';
import { runPacer as run } from './cli-run.js';

const SET_HERE = [
  'PACER_FREQUENCY_CAP',
  'PACER_CONSENT_REQUIRED',
  'PACER_WORKER_PORT',
  'PACER_ACCOUNTS_FILE',
  'EU_WHATSAPP_ACCESS_TOKEN',
  'EU_WHATSAPP_APP_SECRET',
  'US_WHATSAPP_ACCESS_TOKEN',
];
afterEach(() => {
  for (const name of SET_HERE) delete process.env[name];
});

describe('pacer config print', () => {
  it('prints every policy knob with its effective value, the same with --json', async () => {
    process.env.PACER_FREQUENCY_CAP = '4/30d';
    process.env.PACER_CONSENT_REQUIRED = 'marketing';
    process.env.PACER_WORKER_PORT = '4100';
    for (const args of [
      ['config', 'print'],
      ['config', 'print', '--json'],
    ]) {
      const r = await run(...args);
      expect(r.code).toBe(0);
      const printed = JSON.parse(r.out) as { policy: Record<string, unknown>; worker: unknown };
      expect(printed.worker).toEqual({ leaseMs: 60_000, mps: 80, port: 4100 });
      expect(printed.policy).toMatchObject({
        frequencyCap: { max: 4, windowMs: 30 * DAY },
        consentRequired: { marketing: true, utility: false, authentication: false, service: false },
        capRetry: { gapsMs: [DAY, 2 * DAY, 3 * DAY], maxAttemptsPerMessage: 3 },
        unreachableQuietMs: 30 * DAY,
        experimentRecheckMs: 30 * DAY,
        pairRateGapMs: 6000,
        transientBackoff: { baseMs: 2000, maxMs: 600_000, maxAttempts: 8 },
        pairRateBackoff: { baseMs: 1000, maxMs: 300_000, maxAttempts: 6 },
        senderBackoff: { baseMs: 1000, maxMs: 120_000, maxAttempts: 10 },
        blockedRecheckMs: 3_600_000,
        usMarketingPause: true,
        marketingPath: 'cloud',
        capCodes: [131049],
        stopKeywords: expect.arrayContaining(['stop', 'unsubscribe']) as unknown,
        resumeKeywords: expect.arrayContaining(['start']) as unknown,
        stopButtons: expect.arrayContaining(['stop promotions']) as unknown,
        campaignBreaker: { maxCapShare: 0.3, minOutcomes: 200, pauseOnRedTemplate: true, pauseOnQualityDrop: true },
      });
    }
  });

  it('refuses a bad knob with exit code 2, naming the variable and the value', async () => {
    process.env.PACER_FREQUENCY_CAP = 'twice';
    const r = await run('config', 'print');
    expect(r.code).toBe(2);
    expect(r.err).toContain('PACER_FREQUENCY_CAP: like 2/7d');
    expect(r.err).toContain('(got "twice")');
  });

  it('shows every account of PACER_ACCOUNTS_FILE, tokens and app secrets redacted', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'pacer-print-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const file = path.join(dir, 'accounts.json');
    const accounts = [
      {
        name: 'eu',
        businessAccountId: '102290129340398',
        accessTokenEnv: 'EU_WHATSAPP_ACCESS_TOKEN',
        appSecretEnv: 'EU_WHATSAPP_APP_SECRET',
        portfolio: 'acme',
      },
      { name: 'us', businessAccountId: '203391230451409', accessTokenEnv: 'US_WHATSAPP_ACCESS_TOKEN', phoneNumberIds: ['106540352242922'] },
    ];
    writeFileSync(file, JSON.stringify({ accounts }));
    Object.assign(process.env, {
      PACER_ACCOUNTS_FILE: file,
      EU_WHATSAPP_ACCESS_TOKEN: 'EAAG-print-eu-token',
      EU_WHATSAPP_APP_SECRET: 'print-eu-app-secret',
      US_WHATSAPP_ACCESS_TOKEN: 'EAAG-print-us-token',
    });
    const r = await run('config', 'print');
    expect(r.code).toBe(0);
    for (const secret of ['EAAG-print-eu-token', 'print-eu-app-secret', 'EAAG-print-us-token']) expect(r.out).not.toContain(secret);
    const printed = JSON.parse(r.out) as { whatsapp: { accounts: unknown[] } };
    expect(printed.whatsapp.accounts).toEqual([
      {
        name: 'eu',
        businessAccountId: '102290129340398',
        accessToken: '<redacted 19 chars>',
        appSecrets: ['<redacted 19 chars>'],
        portfolio: 'acme',
        phoneNumberIds: null,
      },
      {
        name: 'us',
        businessAccountId: '203391230451409',
        accessToken: '<redacted 19 chars>',
        appSecrets: [],
        portfolio: '203391230451409',
        phoneNumberIds: ['106540352242922'],
      },
    ]);

    delete process.env.US_WHATSAPP_ACCESS_TOKEN;
    const refused = await run('config', 'print');
    expect(refused.code).toBe(2);
    expect(refused.err).toContain(`PACER_ACCOUNTS_FILE (${file}): accounts[1].accessTokenEnv: US_WHATSAPP_ACCESS_TOKEN is not set`);
  });
});
