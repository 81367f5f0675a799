import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, redactConfig } from './config.js';

describe('loadConfig', () => {
  it('applies the documented defaults', () => {
    const c = loadConfig({});
    expect(c.http).toEqual({ host: '127.0.0.1', port: 3000, adminToken: null, logLevel: 'warn' });
    expect(c.storage).toEqual({ databaseUrl: null, dataDir: './data', schema: 'public', poolSize: 10 });
    expect(c.worker).toEqual({ leaseMs: 60_000, mps: 80 });
    expect(c.mode).toBe('production');
    expect(c.whatsapp.apiBaseUrl).toBe('https://graph.facebook.com');
    expect(c.policy.capCodes).toEqual([131049]);
    expect(Object.isFrozen(c.policy)).toBe(true);
  });

  it('reads secrets for rotation, the cap schedule and On-Premises cap codes', () => {
    const c = loadConfig({ WHATSAPP_APP_SECRET: 'old, new', PACER_CAP_SCHEDULE: '48h', PACER_CAP_CODES: '1026', WHATSAPP_API_BASE_URL: 'http://127.0.0.1:9/' });
    expect(c.whatsapp.appSecrets).toEqual(['old', 'new']);
    expect(c.policy.capRetry.gapsMs).toEqual([48 * 3600_000]);
    expect(c.policy.capCodes).toEqual([131049, 1026]);
    expect(c.whatsapp.apiBaseUrl).toBe('http://127.0.0.1:9');
  });

  it('reads the scale-out settings: schema, pool size, lease length and the per-process pace', () => {
    const c = loadConfig({ PACER_DB_SCHEMA: 'pacer_eu', PACER_DB_POOL_SIZE: '25', PACER_LEASE_MS: '15000', PACER_WORKER_MPS: '200' });
    expect(c.storage).toMatchObject({ schema: 'pacer_eu', poolSize: 25 });
    expect(c.worker).toEqual({ leaseMs: 15_000, mps: 200 });
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

  it('trusts no proxy by default, and reads PACER_TRUST_PROXY as the trustProxy option of Fastify does', () => {
    expect(loadConfig({}).edge).toEqual({ trustProxy: false, webhookInflightBytes: 32 * 1024 * 1024, webhookBodyTimeoutMs: 10_000 });
    expect(loadConfig({ PACER_TRUST_PROXY: 'true' }).edge.trustProxy).toBe(true);
    expect(loadConfig({ PACER_TRUST_PROXY: 'false' }).edge.trustProxy).toBe(false);
    expect(loadConfig({ PACER_TRUST_PROXY: '2' }).edge.trustProxy).toBe(2);
    expect(loadConfig({ PACER_TRUST_PROXY: '10.0.0.5, 192.168.0.0/16,fd00::/8, ::1, loopback' }).edge.trustProxy).toEqual(['10.0.0.5', '192.168.0.0/16', 'fd00::/8', '::1', 'loopback']);
    for (const bad of ['yes', '10.0.0.0/33', '10.0.0.300', 'proxy.example', '99', '::1/129', ',']) {
      expect(() => loadConfig({ PACER_TRUST_PROXY: bad }), bad).toThrow(/PACER_TRUST_PROXY: .*(true, false, a hop count)/);
    }
    expect(() => loadConfig({ PACER_TRUST_PROXY: '10.0.0.0/33' })).toThrow(/"10.0.0.0\/33" is not an IP address, a CIDR range/);
  });

  it('bounds webhook bodies in flight and their time, within limits', () => {
    expect(loadConfig({ PACER_WEBHOOK_INFLIGHT_MB: '64', PACER_WEBHOOK_BODY_TIMEOUT_MS: '5000' }).edge).toMatchObject({ webhookInflightBytes: 64 * 1024 * 1024, webhookBodyTimeoutMs: 5000 });
    expect(() => loadConfig({ PACER_WEBHOOK_INFLIGHT_MB: '2' })).toThrow(/PACER_WEBHOOK_INFLIGHT_MB: at least 3/);
    expect(() => loadConfig({ PACER_WEBHOOK_BODY_TIMEOUT_MS: '10' })).toThrow(/PACER_WEBHOOK_BODY_TIMEOUT_MS/);
  });

  it('never shows a secret when printed', () => {
    const c = loadConfig({ WHATSAPP_ACCESS_TOKEN: 'EAAG-very-secret', WHATSAPP_APP_SECRET: 'appsecret123', PACER_ADMIN_TOKEN: 'admin-token-0123456789', DATABASE_URL: 'postgres://u:pw@h/db' });
    const printed = JSON.stringify(redactConfig(c));
    for (const secret of ['EAAG-very-secret', 'appsecret123', 'admin-token-0123456789', ':pw@']) expect(printed).not.toContain(secret);
    expect(printed).toContain('<redacted');
  });
});
