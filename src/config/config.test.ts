import { describe, expect, it } from 'vitest';
import { DEFAULT_POLICY } from '../core/policy.js';
import { DAY, HOUR, MINUTE, SECOND } from '../core/time.js';
import { ConfigError, loadConfig, redactConfig } from './config.js';

describe('loadConfig', () => {
  it('applies the documented defaults', () => {
    const c = loadConfig({});
    expect(c.http).toEqual({ host: '127.0.0.1', port: 3000, adminToken: null, idempotencyTtlMs: 24 * 60 * 60 * 1000, logLevel: 'warn' });
    expect(c.storage).toEqual({ databaseUrl: null, dataDir: './data', schema: 'public', poolSize: 10 });
    expect(c.worker).toEqual({ leaseMs: 60_000, mps: 80, port: 0 });
    expect(c.mode).toBe('production');
    expect(c.whatsapp.apiBaseUrl).toBe('https://graph.facebook.com');
    expect(c.policy.capCodes).toEqual([131049]);
    expect(Object.isFrozen(c.policy)).toBe(true);
  });

  it('reads secrets for rotation, the cap schedule and On-Premises cap codes', () => {
    const c = loadConfig({
      WHATSAPP_APP_SECRET: 'old, new',
      PACER_CAP_SCHEDULE: '48h',
      PACER_CAP_CODES: '1026',
      WHATSAPP_API_BASE_URL: 'http://127.0.0.1:9/',
    });
    expect(c.whatsapp.appSecrets).toEqual(['old', 'new']);
    expect(c.policy.capRetry.gapsMs).toEqual([48 * 3600_000]);
    expect(c.policy.capCodes).toEqual([131049, 1026]);
    expect(c.whatsapp.apiBaseUrl).toBe('http://127.0.0.1:9');
  });

  it('reads how often serve syncs templates: a duration of at least a minute, or off', () => {
    expect(loadConfig({}).templates.syncEveryMs).toBe(60 * 60_000);
    expect(loadConfig({ PACER_TEMPLATE_SYNC_EVERY: '30m' }).templates.syncEveryMs).toBe(30 * 60_000);
    expect(loadConfig({ PACER_TEMPLATE_SYNC_EVERY: 'off' }).templates.syncEveryMs).toBeNull();
    expect(() => loadConfig({ PACER_TEMPLATE_SYNC_EVERY: '5s' })).toThrow(
      'PACER_TEMPLATE_SYNC_EVERY: a duration like 30m, 1h or 1d (at least 1m), or off (got "5s")',
    );
  });

  it('reads how long the API keeps idempotency keys: from an hour to 30 days', () => {
    expect(loadConfig({ PACER_IDEMPOTENCY_TTL: '7d' }).http.idempotencyTtlMs).toBe(7 * 24 * 60 * 60_000);
    expect(() => loadConfig({ PACER_IDEMPOTENCY_TTL: '10m' })).toThrow(
      'PACER_IDEMPOTENCY_TTL: a duration like 24h or 7d, from 1h to 30d (got "10m")',
    );
    expect(() => loadConfig({ PACER_IDEMPOTENCY_TTL: '31d' })).toThrow('PACER_IDEMPOTENCY_TTL');
  });

  it('reads the scale-out settings: schema, pool size, lease length and the per-process pace', () => {
    const c = loadConfig({
      PACER_DB_SCHEMA: 'pacer_eu',
      PACER_DB_POOL_SIZE: '25',
      PACER_LEASE_MS: '15000',
      PACER_WORKER_MPS: '200',
      PACER_WORKER_PORT: '3101',
    });
    expect(c.storage).toMatchObject({ schema: 'pacer_eu', poolSize: 25 });
    expect(c.worker).toEqual({ leaseMs: 15_000, mps: 200, port: 3101 });
    expect(() => loadConfig({ PACER_WORKER_PORT: '70000' })).toThrow(/PACER_WORKER_PORT/);
    expect(() => loadConfig({ PACER_DB_SCHEMA: 'Robert"; DROP' })).toThrow(/PACER_DB_SCHEMA: a lower-case SQL identifier/);
    expect(() => loadConfig({ PACER_LEASE_MS: '10' })).toThrow(/PACER_LEASE_MS/);
    expect(() => loadConfig({ PACER_DB_POOL_SIZE: '0' })).toThrow(/PACER_DB_POOL_SIZE/);
  });

  it('names every bad variable and what is wrong with it', () => {
    expect(() => loadConfig({ PACER_PORT: 'http', DATABASE_URL: 'mysql://x', PACER_MODE: 'dev' })).toThrow(ConfigError);
    try {
      loadConfig({ PACER_PORT: 'http', DATABASE_URL: 'mysql://x', PACER_MODE: 'dev' });
    } catch (error) {
      const text = (error as Error).message;
      expect(text).toMatch(/PACER_PORT/);
      expect(text).toMatch(/DATABASE_URL: a postgres:\/\/ URL/);
      expect(text).toMatch(/PACER_MODE/);
    }
  });

  it('leaves the built-in policy exactly as it is when no policy variable is set', () => {
    expect(loadConfig({}).policy).toEqual(DEFAULT_POLICY);
    expect(loadConfig({ PACER_WORKER_PORT: '4100' }).worker.port).toBe(4100);
  });

  it('reads every policy knob', () => {
    const p = loadConfig({
      PACER_FREQUENCY_CAP: '3/14d',
      PACER_CONSENT_REQUIRED: 'marketing',
      PACER_CAP_SCHEDULE: '12h, 36h',
      PACER_CAP_MAX_ATTEMPTS: '5',
      PACER_UNREACHABLE_QUIET: '14d',
      PACER_EXPERIMENT_RECHECK: 'never',
      PACER_PAIR_RATE_GAP: '10s',
      PACER_TRANSIENT_BACKOFF: '5s,20m,4',
      PACER_PAIR_RATE_BACKOFF: '2s,1m,3',
      PACER_SENDER_BACKOFF: '30s,10m,6',
      PACER_BLOCKED_RECHECK: '15m',
      PACER_STOP_KEYWORDS: 'stop, halt',
      PACER_RESUME_KEYWORDS: 'none',
      PACER_STOP_BUTTONS: 'No more offers',
      PACER_US_MARKETING_PAUSE: 'false',
      PACER_BREAKER_CAP_SHARE: '0.5',
      PACER_BREAKER_MIN_OUTCOMES: '50',
      PACER_BREAKER_PAUSE_ON_RED_TEMPLATE: 'false',
      PACER_BREAKER_PAUSE_ON_QUALITY_DROP: 'false',
      PACER_SEND_SPREAD: '90m',
    }).policy;
    expect(p.frequencyCap).toEqual({ max: 3, windowMs: 14 * DAY });
    expect(p.sendSpreadMs).toBe(90 * MINUTE);
    expect(loadConfig({ PACER_SEND_SPREAD: 'off' }).policy.sendSpreadMs).toBe(0);
    expect(p.consentRequired).toEqual({ marketing: true, utility: false, authentication: false, service: false });
    expect(p.capRetry).toEqual({ gapsMs: [12 * HOUR, 36 * HOUR], maxAttemptsPerMessage: 5 });
    expect(p.unreachableQuietMs).toBe(14 * DAY);
    expect(p.experimentRecheckMs).toBeNull();
    expect(p.pairRateGapMs).toBe(10 * SECOND);
    expect(p.transientBackoff).toEqual({ baseMs: 5 * SECOND, maxMs: 20 * MINUTE, maxAttempts: 4 });
    expect(p.pairRateBackoff).toEqual({ baseMs: 2 * SECOND, maxMs: MINUTE, maxAttempts: 3 });
    expect(p.senderBackoff).toEqual({ baseMs: 30 * SECOND, maxMs: 10 * MINUTE, maxAttempts: 6 });
    expect(p.blockedRecheckMs).toBe(15 * MINUTE);
    expect(p.stopKeywords).toEqual(['stop', 'halt']);
    expect(p.resumeKeywords).toEqual([]);
    expect(p.stopButtons).toEqual(['No more offers']);
    expect(p.usMarketingPause).toBe(false);
    expect(p.campaignBreaker).toEqual({ maxCapShare: 0.5, minOutcomes: 50, pauseOnRedTemplate: false, pauseOnQualityDrop: false });
  });

  it('turns the frequency cap and consent off, and keeps a named cap schedule', () => {
    const p = loadConfig({ PACER_FREQUENCY_CAP: 'off', PACER_CONSENT_REQUIRED: 'none', PACER_CAP_SCHEDULE: '24h' }).policy;
    expect(p.frequencyCap).toBeNull();
    expect(Object.values(p.consentRequired)).toEqual([false, false, false, false]);
    expect(p.capRetry).toEqual({ gapsMs: [24 * HOUR], maxAttemptsPerMessage: 3 });
    expect(loadConfig({ PACER_CAP_MAX_ATTEMPTS: '2' }).policy.capRetry).toEqual({
      gapsMs: [24 * HOUR, 48 * HOUR, 72 * HOUR],
      maxAttemptsPerMessage: 2,
    });
  });

  it('refuses a bad policy value, naming the variable, what it expects and the value given', () => {
    const bad: [string, string, RegExp][] = [
      ['PACER_FREQUENCY_CAP', '2 per week', /like 2\/7d/],
      ['PACER_FREQUENCY_CAP', '40/7d', /1 to 16/],
      ['PACER_FREQUENCY_CAP', '2/0m', /like 2\/7d/],
      ['PACER_CONSENT_REQUIRED', 'marketing,sms', /categories \(marketing, utility, authentication, service\)/],
      ['PACER_CAP_SCHEDULE', '10m', /gaps of at least 1 h/],
      ['PACER_CAP_SCHEDULE', 'toString', /gaps of at least 1 h/],
      ['PACER_CAP_MAX_ATTEMPTS', '0', /PACER_CAP_MAX_ATTEMPTS/],
      ['PACER_UNREACHABLE_QUIET', '30', /a duration like/],
      ['PACER_EXPERIMENT_RECHECK', 'sometimes', /or never/],
      ['PACER_PAIR_RATE_GAP', '-1s', /a duration like/],
      ['PACER_SENDER_BACKOFF', '1m,1s,3', /longest at least the first/],
      ['PACER_TRANSIENT_BACKOFF', '1s,1m', /like 2s,10m,8/],
      ['PACER_BLOCKED_RECHECK', '5s', /at least 1 min/],
      ['PACER_SEND_SPREAD', '30s', /like 1h or 90m \(at most 1 day\), or off/],
      ['PACER_SEND_SPREAD', '2d', /at most 1 day/],
      ['PACER_BREAKER_CAP_SHARE', '30%', /PACER_BREAKER_CAP_SHARE/],
      ['PACER_BREAKER_CAP_SHARE', '1.5', /PACER_BREAKER_CAP_SHARE/],
      ['PACER_US_MARKETING_PAUSE', 'yes', /PACER_US_MARKETING_PAUSE/],
      ['PACER_WORKER_PORT', '70000', /PACER_WORKER_PORT/],
    ];
    for (const [name, value, expected] of bad) {
      let message = '';
      try {
        loadConfig({ [name]: value });
      } catch (error) {
        expect(error).toBeInstanceOf(ConfigError);
        message = (error as Error).message;
      }
      expect(message, `${name}=${value}`).toContain(`${name}: `);
      expect(message, `${name}=${value}`).toMatch(expected);
      expect(message, `${name}=${value}`).toContain(`(got "${value}")`);
    }
  });

  it('never echoes a bad secret in the error', () => {
    expect(() => loadConfig({ PACER_ADMIN_TOKEN: 'short-secret' })).toThrow(/PACER_ADMIN_TOKEN: at least 16 characters$/m);
    expect(() => loadConfig({ DATABASE_URL: 'mysql://u:pw@h/db' })).toThrow(/DATABASE_URL: a postgres:\/\/ URL$/m);
  });

  it("reads the demo's audience, folder and logging, and refuses an audience under 100", () => {
    expect(loadConfig({}).demo).toEqual({ audience: null, dir: null, log: false });
    expect(loadConfig({ PACER_DEMO_AUDIENCE: '5000', PACER_DEMO_DIR: '/tmp/demo', PACER_DEMO_LOG: '1' }).demo).toEqual({
      audience: 5000,
      dir: '/tmp/demo',
      log: true,
    });
    expect(() => loadConfig({ PACER_DEMO_AUDIENCE: '99' })).toThrow(/PACER_DEMO_AUDIENCE/);
    expect(() => loadConfig({ PACER_DEMO_AUDIENCE: 'many' })).toThrow(/PACER_DEMO_AUDIENCE/);
  });

  it('trusts no proxy by default, and reads PACER_TRUST_PROXY as the trustProxy option of Fastify does', () => {
    expect(loadConfig({}).edge).toEqual({ trustProxy: false, webhookInflightBytes: 32 * 1024 * 1024, webhookBodyTimeoutMs: 10_000 });
    expect(loadConfig({ PACER_TRUST_PROXY: 'true' }).edge.trustProxy).toBe(true);
    expect(loadConfig({ PACER_TRUST_PROXY: 'false' }).edge.trustProxy).toBe(false);
    expect(loadConfig({ PACER_TRUST_PROXY: '2' }).edge.trustProxy).toBe(2);
    expect(loadConfig({ PACER_TRUST_PROXY: '10.0.0.5, 192.168.0.0/16,fd00::/8, ::1, loopback' }).edge.trustProxy).toEqual([
      '10.0.0.5',
      '192.168.0.0/16',
      'fd00::/8',
      '::1',
      'loopback',
    ]);
    for (const bad of ['yes', '10.0.0.0/33', '10.0.0.300', 'proxy.example', '99', '::1/129', ',']) {
      expect(() => loadConfig({ PACER_TRUST_PROXY: bad }), bad).toThrow(/PACER_TRUST_PROXY: .*(true, false, a hop count)/);
    }
    expect(() => loadConfig({ PACER_TRUST_PROXY: '10.0.0.0/33' })).toThrow(/"10.0.0.0\/33" is not an IP address, a CIDR range/);
  });

  it('bounds webhook bodies in flight and their time, within limits', () => {
    expect(loadConfig({ PACER_WEBHOOK_INFLIGHT_MB: '64', PACER_WEBHOOK_BODY_TIMEOUT_MS: '5000' }).edge).toMatchObject({
      webhookInflightBytes: 64 * 1024 * 1024,
      webhookBodyTimeoutMs: 5000,
    });
    expect(() => loadConfig({ PACER_WEBHOOK_INFLIGHT_MB: '2' })).toThrow(/PACER_WEBHOOK_INFLIGHT_MB: at least 3/);
    expect(() => loadConfig({ PACER_WEBHOOK_BODY_TIMEOUT_MS: '10' })).toThrow(/PACER_WEBHOOK_BODY_TIMEOUT_MS/);
  });

  it('never shows a secret when printed', () => {
    const c = loadConfig({
      WHATSAPP_ACCESS_TOKEN: 'EAAG-very-secret',
      WHATSAPP_APP_SECRET: 'appsecret123',
      PACER_ADMIN_TOKEN: 'admin-token-0123456789',
      DATABASE_URL: 'postgres://u:pw@h/db',
    });
    const printed = JSON.stringify(redactConfig(c));
    for (const secret of ['EAAG-very-secret', 'appsecret123', 'admin-token-0123456789', ':pw@']) expect(printed).not.toContain(secret);
    expect(printed).toContain('<redacted');
  });
});
