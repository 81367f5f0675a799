import { describe, expect, it } from 'vitest';
import { DAY, HOUR, MINUTE } from '../core/time.js';
import { DiagnoseInputError, parseSince } from './diagnose.js';

const NOW = Date.UTC(2026, 5, 1, 12, 0, 0);

describe('parseSince', () => {
  it('reads durations back from now and ISO times', () => {
    expect(parseSince('7d', NOW)).toBe(NOW - 7 * DAY);
    expect(parseSince(' 36h ', NOW)).toBe(NOW - 36 * HOUR);
    expect(parseSince('90m', NOW)).toBe(NOW - 90 * MINUTE);
    expect(parseSince('2w', NOW)).toBe(NOW - 14 * DAY);
    expect(parseSince('2026-05-30T08:00:00Z', NOW)).toBe(Date.UTC(2026, 4, 30, 8));
    expect(parseSince('2026-05-30', NOW)).toBe(Date.UTC(2026, 4, 30));
  });

  it('refuses what it cannot read, naming the field and the value', () => {
    const refused = (text: string): DiagnoseInputError => {
      try {
        parseSince(text, NOW);
      } catch (error) {
        if (error instanceof DiagnoseInputError) return error;
        throw error;
      }
      throw new Error(`"${text}" was accepted`);
    };
    expect(refused('0d')).toMatchObject({ field: 'since', message: 'since must be a positive duration, got "0d"' });
    expect(refused('7 days').message).toBe('since must be a duration like 7d, 36h, 90m, 2w or an ISO 8601 time, got "7 days"');
    expect(refused('-7d').message).toContain('got "-7d"');
    expect(refused('2026-02-30T99:00:00Z').message).toBe('since "2026-02-30T99:00:00Z" is not a valid ISO 8601 time');
    expect(refused('2026-06-02').message).toBe('since "2026-06-02" is not in the past');
    expect(refused('').message).toContain('got ""');
  });
});
