import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, redactConfig } from './config.js';

describe('loadConfig', () => {
  it('applies the documented defaults', () => {
    const c = loadConfig({});
    expect(c.http).toEqual({ host: '127.0.0.1', port: 3000, adminToken: null });
    expect(c.storage).toEqual({ databaseUrl: null, dataDir: './data' });
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

  it('never shows a secret when printed', () => {
    const c = loadConfig({ WHATSAPP_ACCESS_TOKEN: 'EAAG-very-secret', WHATSAPP_APP_SECRET: 'appsecret123', PACER_ADMIN_TOKEN: 'admin-token-0123456789', DATABASE_URL: 'postgres://u:pw@h/db' });
    const printed = JSON.stringify(redactConfig(c));
    for (const secret of ['EAAG-very-secret', 'appsecret123', 'admin-token-0123456789', ':pw@']) expect(printed).not.toContain(secret);
    expect(printed).toContain('<redacted');
  });
});
