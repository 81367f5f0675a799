import { describe, expect, it } from 'vitest';
import { frequencyCapText, parseDuration, parseFrequencyCap } from './duration.js';
import { DAY, durationText, HOUR, MINUTE, SECOND } from './time.js';

describe('durations and frequency caps as text', () => {
  it('parses durations in every unit and refuses anything else', () => {
    expect(parseDuration('500ms')).toBe(500);
    expect(parseDuration(' 6s ')).toBe(6 * SECOND);
    expect(parseDuration('90m')).toBe(90 * MINUTE);
    expect(parseDuration('12h')).toBe(12 * HOUR);
    expect(parseDuration('30d')).toBe(30 * DAY);
    expect(parseDuration('2w')).toBe(14 * DAY);
    for (const bad of ['', '6', '-1s', '1.5h', '1y', 'h', '1 h']) expect(parseDuration(bad), bad).toBeNull();
  });

  it('parses a cap as count per window, or off', () => {
    expect(parseFrequencyCap('2/7d')).toEqual({ max: 2, windowMs: 7 * DAY });
    expect(parseFrequencyCap(' 16 / 30d ')).toEqual({ max: 16, windowMs: 30 * DAY });
    expect(parseFrequencyCap('OFF')).toEqual({ max: 0, windowMs: 0 });
    for (const bad of ['2', '0/7d', '17/7d', '2/30s', '2/week', 'two/7d']) expect(parseFrequencyCap(bad), bad).toBeNull();
  });

  it('writes durations and caps as an operator reads them', () => {
    expect(durationText(7 * DAY)).toBe('7 days');
    expect(durationText(DAY)).toBe('1 day');
    expect(durationText(36 * HOUR)).toBe('36 h');
    expect(durationText(90 * MINUTE)).toBe('90 min');
    expect(durationText(6 * SECOND)).toBe('6 s');
    expect(frequencyCapText({ max: 2, windowMs: 7 * DAY })).toBe('2 per 7 days');
    expect(frequencyCapText({ max: 0, windowMs: 0 })).toBe('off');
    expect(frequencyCapText(null)).toBe('off');
  });
});
