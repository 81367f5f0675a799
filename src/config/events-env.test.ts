import { describe, expect, it } from 'vitest';
import { DAY, HOUR, MINUTE, SECOND } from '../core/time.js';
import { loadConfig } from './config.js';

describe('event delivery settings', () => {
  it('default to delivering, 16 at once, 10 s per request, a look every 500 ms, retries from 5 s to 1 h for 3 days', () => {
    expect(loadConfig({}).events).toEqual({
      deliver: true,
      concurrency: 16,
      timeoutMs: 10 * SECOND,
      pollMs: 500,
      retry: { firstMs: 5 * SECOND, maxMs: HOUR, giveUpAfterMs: 3 * DAY },
      retentionMs: 30 * DAY,
    });
  });

  it('read each variable', () => {
    const c = loadConfig({
      PACER_EVENTS_DELIVER: 'false',
      PACER_EVENTS_CONCURRENCY: '4',
      PACER_EVENTS_TIMEOUT: '30s',
      PACER_EVENTS_POLL: '2s',
      PACER_EVENTS_RETRY: '1s, 10m, 1d',
      PACER_EVENTS_RETENTION: '90d',
    });
    expect(c.events).toEqual({
      deliver: false,
      concurrency: 4,
      timeoutMs: 30 * SECOND,
      pollMs: 2 * SECOND,
      retry: { firstMs: SECOND, maxMs: 10 * MINUTE, giveUpAfterMs: DAY },
      retentionMs: 90 * DAY,
    });
    expect(loadConfig({ PACER_EVENTS_RETENTION: 'off' }).events.retentionMs).toBeNull();
  });

  it('refuse bad values, naming the variable and what it takes', () => {
    expect(() => loadConfig({ PACER_EVENTS_RETRY: '1h,5s,1d' })).toThrow(
      'PACER_EVENTS_RETRY: first gap, longest gap and when to give up, like 5s,1h,3d (the longest at least the first) (got "1h,5s,1d")',
    );
    expect(() => loadConfig({ PACER_EVENTS_RETRY: '5s,1h' })).toThrow(/PACER_EVENTS_RETRY/);
    expect(() => loadConfig({ PACER_EVENTS_RETENTION: '10m' })).toThrow(
      'PACER_EVENTS_RETENTION: a duration like 30d, from 1h to 3650d, or off to keep events for ever (got "10m")',
    );
    expect(() => loadConfig({ PACER_EVENTS_RETENTION: 'never' })).toThrow(/PACER_EVENTS_RETENTION/);
    expect(() => loadConfig({ PACER_EVENTS_TIMEOUT: '10m' })).toThrow(
      'PACER_EVENTS_TIMEOUT: a duration like 10s, from 1s to 5m (got "10m")',
    );
    expect(() => loadConfig({ PACER_EVENTS_POLL: '10ms' })).toThrow(
      'PACER_EVENTS_POLL: a duration like 500ms, from 50ms to 1m (got "10ms")',
    );
    expect(() => loadConfig({ PACER_EVENTS_CONCURRENCY: '0' })).toThrow(/PACER_EVENTS_CONCURRENCY/);
    expect(() => loadConfig({ PACER_EVENTS_DELIVER: 'yes' })).toThrow(/PACER_EVENTS_DELIVER/);
  });
});
