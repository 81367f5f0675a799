import { describe, expect, it } from 'vitest';
import { createProgressBar, formatProgress } from './import-progress.js';

describe('progress bar', () => {
  it('shows the share read, rows per second and bytes of the total', () => {
    expect(formatProgress('big.csv', { rows: 50_000, bytesRead: 5 * 1024 * 1024, totalBytes: 10 * 1024 * 1024 }, 2_000, 10)).toBe(
      'big.csv [#####-----] 50%  50,000 rows  25,000 rows/s  5.0 MiB of 10.0 MiB',
    );
  });

  it('draws nothing before the delay, then at most every 200 ms, and clears its line at the end', () => {
    let t = 0;
    const written: string[] = [];
    const bar = createProgressBar({ write: (s) => written.push(s), now: () => t, label: 'f.csv', delayMs: 500 });
    const p = { rows: 1, bytesRead: 1, totalBytes: 2 };
    t = 100;
    bar.update(p);
    expect(written).toEqual([]);
    t = 600;
    bar.update(p);
    t = 700;
    bar.update(p);
    t = 800;
    bar.update(p);
    expect(written).toHaveLength(2);
    expect(written[0]).toMatch(/^\rf\.csv \[/);
    bar.done();
    expect(written.at(-1)).toBe('\r\u001b[K');
  });

  it('leaves no trace for a file imported before the delay', () => {
    const written: string[] = [];
    const bar = createProgressBar({ write: (s) => written.push(s), now: () => 0, label: 'small.csv' });
    bar.update({ rows: 3, bytesRead: 10, totalBytes: 10 });
    bar.done();
    expect(written).toEqual([]);
  });
});
