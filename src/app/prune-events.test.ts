import { describe, expect, it } from 'vitest';
import { DAY, HOUR, MINUTE } from '../core/time.js';
import { VirtualClock } from '../ports/clock.js';
import type { LogFields, Logger } from '../ports/logger.js';
import type { PrunedEvents } from '../ports/store.js';
import { startEventPruning } from './prune-events.js';

function recordingLogger(): Logger & { lines: Array<{ level: string; message: string; fields?: LogFields }> } {
  const lines: Array<{ level: string; message: string; fields?: LogFields }> = [];
  const log = (level: string) => (message: string, fields?: LogFields) =>
    void lines.push({ level, message, ...(fields ? { fields } : {}) });
  return { lines, error: log('error'), warn: log('warn'), info: log('info'), debug: log('debug') };
}

describe('event pruning on a timer', () => {
  it('prunes a minute after start and hourly after, at the retention cut-off; a failure is logged and tried again an hour later', async () => {
    const start = Date.UTC(2026, 5, 1, 0, 0, 0);
    const clock = new VirtualClock(start);
    const cutOffs: number[] = [];
    let fail = false;
    const store = {
      pruneOutboundEvents: async (before: number): Promise<PrunedEvents> => {
        cutOffs.push(before);
        if (fail) throw new Error('the store is away');
        return { events: 3, deliveries: 4, attempts: 5 };
      },
    };
    const logger = recordingLogger();
    const pruning = startEventPruning({ store, scheduler: clock, logger }, 30 * DAY);
    await clock.advance(MINUTE - 1);
    expect(cutOffs).toEqual([]);
    await clock.advance(1);
    expect(cutOffs).toEqual([start + MINUTE - 30 * DAY]);
    expect(logger.lines).toEqual([
      { level: 'info', message: 'pruned old outbound events', fields: { events: 3, deliveries: 4, attempts: 5 } },
    ]);
    fail = true;
    await clock.advance(HOUR);
    expect(cutOffs).toEqual([start + MINUTE - 30 * DAY, start + MINUTE + HOUR - 30 * DAY]);
    expect(logger.lines[1]).toMatchObject({ level: 'error', message: 'pruning old outbound events failed; trying again in an hour' });
    fail = false;
    await clock.advance(HOUR);
    expect(cutOffs).toHaveLength(3);
    await pruning.stop();
    await clock.advance(10 * HOUR);
    expect(cutOffs).toHaveLength(3);
    expect(clock.pending()).toBe(0);
  });
});
