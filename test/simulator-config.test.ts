import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_SIMULATOR_CONFIG,
  resolveSimulatorConfig,
  simulatedAccounts,
  type SimAccountConfig,
} from '../src/adapters/simulator/index.js';

const DOC = readFileSync(path.resolve(import.meta.dirname, '../docs/simulator.md'), 'utf8');

/** Config keys one level into each group (`cap.windowMs`), the level the documentation describes. */
function documentedKeys(): string[] {
  return Object.entries(DEFAULT_SIMULATOR_CONFIG).flatMap(([key, value]) =>
    typeof value === 'object' && value !== null && !Array.isArray(value) ? Object.keys(value).map((k) => `${key}.${k}`) : [key],
  );
}

describe('simulator configuration', () => {
  it('documents every parameter in docs/simulator.md', () => {
    const missing = documentedKeys().filter((key) => !DOC.includes(`\`${key}\``));
    expect(missing).toEqual([]);
  });

  it('merges objects with the defaults and replaces arrays and scalars', () => {
    const config = resolveSimulatorConfig({
      seed: 9,
      cap: { windowMs: 1_000 },
      templates: [{ name: 'a', language: 'en', category: 'UTILITY', relevance: 1 }],
    });
    expect(config.seed).toBe(9);
    expect(config.cap.windowMs).toBe(1_000);
    expect(config.cap.maxPerWindow).toBe(DEFAULT_SIMULATOR_CONFIG.cap.maxPerWindow);
    expect(config.templates.map((t) => t.name)).toEqual(['a']);
  });

  it('names the field that is wrong', () => {
    expect(() => resolveSimulatorConfig({ population: { experimentRate: 2 } })).toThrow(
      /population\.experimentRate must be between 0 and 1/,
    );
    expect(() => resolveSimulatorConfig({ seed: 1.5 })).toThrow(/seed must be an integer/);
    expect(() => resolveSimulatorConfig({ population: { countryMix: 'even' as 'exact' } })).toThrow(
      'simulator config: population.countryMix must be "drawn" or "exact", got "even"',
    );
    expect(() => resolveSimulatorConfig({ templates: [{ name: 'x', language: 'en', category: 'MARKETING', relevance: 3 }] })).toThrow(
      /templates\[0\]\.relevance/,
    );
    expect(() => resolveSimulatorConfig({ callbackUrl: 'ftp://x' })).toThrow(/callbackUrl/);
    expect(() => resolveSimulatorConfig({ reactions: { night: { fromHour: 24 } } })).toThrow(
      /reactions\.night\.fromHour must be a whole hour from 0 to 23, got 24/,
    );
    expect(() => resolveSimulatorConfig({ reactions: { night: { blockFactor: 0 } } })).toThrow(
      /reactions\.night\.blockFactor must be a number above 0/,
    );
  });
});

describe('simulator accounts and numbers', () => {
  it('derives one account with one number from the top-level fields when accounts are not given', () => {
    const config = resolveSimulatorConfig({ phoneNumberId: '123456', accessToken: 'tok', rateLimits: { throughputMps: 7 } });
    expect(config.accounts).toEqual([
      {
        wabaId: DEFAULT_SIMULATOR_CONFIG.wabaId,
        accessToken: 'tok',
        appSecret: DEFAULT_SIMULATOR_CONFIG.appSecret,
        portfolioId: DEFAULT_SIMULATOR_CONFIG.accounts[0]?.portfolioId,
        messagingLimit: 'TIER_2K',
        numbers: [
          {
            phoneNumberId: '123456',
            displayPhoneNumber: DEFAULT_SIMULATOR_CONFIG.displayPhoneNumber,
            verifiedName: 'Simulated Shop',
            throughputMps: 7,
            status: 'CONNECTED',
            nameStatus: 'APPROVED',
          },
        ],
      },
    ]);
  });

  it('sets the top-level fields from the first account’s first number when accounts are given', () => {
    const accounts = simulatedAccounts({ accounts: 2, numbers: 3, accessToken: 'tok', appSecret: 'sec', throughputMps: 12 });
    const config = resolveSimulatorConfig({ accounts });
    const [first] = accounts as [SimAccountConfig];
    expect(config).toMatchObject({
      wabaId: first.wabaId,
      accessToken: 'tok',
      appSecret: 'sec',
      phoneNumberId: first.numbers[0]?.phoneNumberId,
      displayPhoneNumber: first.numbers[0]?.displayPhoneNumber,
      rateLimits: { throughputMps: 12 },
    });
    expect(config.accounts.map((a) => [a.wabaId, a.accessToken, a.appSecret, a.numbers.map((n) => n.phoneNumberId)])).toEqual([
      ['100200300400500', 'tok', 'sec', ['106540352242922', '106540352242923', '106540352242924']],
      ['100200300400501', 'tok-2', 'sec-2', ['106540352243922', '106540352243923', '106540352243924']],
    ]);
    // Agreeing top-level fields are fine; a disagreeing one is named, secrets without their values.
    expect(resolveSimulatorConfig({ accounts, wabaId: first.wabaId }).wabaId).toBe(first.wabaId);
    expect(() => resolveSimulatorConfig({ accounts, wabaId: '42' })).toThrow(
      /wabaId is "42" but accounts\[0\]\.wabaId is "100200300400500"/,
    );
    expect(() => resolveSimulatorConfig({ accounts, appSecret: 'other-secret' })).toThrow(
      /^simulator config: appSecret differs from accounts\[0\]\.appSecret: give one/,
    );
    expect(() => resolveSimulatorConfig({ accounts, appSecret: 'other-secret' })).not.toThrow(/other-secret|"sec"/);
    expect(() => resolveSimulatorConfig({ accounts, rateLimits: { throughputMps: 80 } })).toThrow(/rateLimits\.throughputMps/);
  });

  it('names the account or number field that is wrong', () => {
    const accounts = (): SimAccountConfig[] => simulatedAccounts({ accounts: 2, numbers: 2 });
    const broken = (change: (a: SimAccountConfig[]) => void) => {
      const a = accounts();
      change(a);
      return () => resolveSimulatorConfig({ accounts: a });
    };
    expect(() => resolveSimulatorConfig({ accounts: [] })).toThrow(/accounts must list at least one account/);
    expect(
      broken((a) => {
        (a[1]?.numbers[0] as { phoneNumberId: string }).phoneNumberId = a[0]?.numbers[0]?.phoneNumberId ?? '';
      }),
    ).toThrow(/accounts\[1\]\.numbers\[0\]\.phoneNumberId repeats accounts\[0\]\.numbers\[0\]\.phoneNumberId/);
    expect(
      broken((a) => {
        (a[1] as { messagingLimit: string }).messagingLimit = 'TIER_10K';
      }),
    ).toThrow(/accounts\[1\]\.messagingLimit is TIER_10K but accounts\[0\], of the same portfolio, has TIER_2K/);
    expect(
      broken((a) => {
        (a[0]?.numbers[1] as { status: string }).status = 'ONLINE';
      }),
    ).toThrow(/accounts\[0\]\.numbers\[1\]\.status must be one of BANNED, CONNECTED/);
    expect(
      broken((a) => {
        (a[0]?.numbers[0] as { displayPhoneNumber: string }).displayPhoneNumber = '+1 555-078-3881';
      }),
    ).toThrow(/accounts\[0\]\.numbers\[0\]\.displayPhoneNumber must be the number as 7-15 digits/);
    expect(
      broken((a) => {
        (a[1] as { numbers: unknown[] }).numbers = [];
      }),
    ).toThrow(/accounts\[1\]\.numbers must list at least one number/);
    expect(() => resolveSimulatorConfig({ quality: { messagingTier: 'TIER_1K' } })).toThrow(
      /quality\.messagingTier must be one of TIER_250/,
    );
    expect(() => simulatedAccounts({ numbers: 101 })).toThrow(/numbers must be 1-100/);
  });
});
