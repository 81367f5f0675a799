import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runDemo } from '../src/main/demo/run-demo.js';

let dir = '';
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('the demo', () => {
  it('runs its strategies on the same world and shows Pacer keeping capped contacts reachable', async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'pacer-demo-'));
    const lines: string[] = [];
    const { pacer, naive, metrics, names } = await runDemo({ audience: 600, outDir: dir, out: (l) => lines.push(l) });
    // The demo's four: Pacer, today's naive sender, and two documented peers.
    expect(names).toEqual(['pacer', 'resend-at-once-drop-after-2', 'retry-12-24-48h', 'bounce-blacklist']);
    const retryLater = metrics['retry-12-24-48h']!;
    const blacklist = metrics['bounce-blacklist']!;
    // Retrying at 12 h lands inside the cap's penalty: more 131049 failures than Pacer's 24 h and more.
    expect(retryLater.caps131049).toBeGreaterThan(pacer.caps131049);
    // Blacklisting on 131049 drops reachable people and withholds their order updates.
    expect(blacklist.wronglySuppressed).toBeGreaterThan(0);
    // Counted on the same people in every column: those capped in any world.
    expect(blacklist.utilityToCapped).toBeLessThan(pacer.utilityToCapped);
    expect(blacklist.retriesSpent).toBe(0);
    // Both worlds saw the same users: the naive sender hits the cap far more by resending at once.
    expect(naive.caps131049).toBeGreaterThan(pacer.caps131049);
    expect(naive.retriesSpent).toBeGreaterThan(pacer.retriesSpent);
    // Pacer never drops a reachable contact; the naive sender drops everyone who failed twice.
    expect(pacer.wronglySuppressed).toBe(0);
    expect(naive.wronglySuppressed).toBeGreaterThan(0);
    // Order updates still reach people whose marketing was capped.
    expect(pacer.utilityToCapped).toBeGreaterThan(naive.utilityToCapped);
    expect(pacer.delivered).toBeGreaterThan(naive.delivered);
    expect(pacer.daily).toHaveLength(7);
    expect(lines.join('\n')).toMatch(/131049 failures\s+[\d,]+\s+[\d,]+/);
    // When messages land, from ground truth: some at the recipients' night (order updates go out at
    // 10:00 UTC, before dawn in the Americas), and Pacer's retries after a 131049 wait at least a day.
    expect(pacer.deliveredAtNight).toBeGreaterThan(0);
    expect(pacer.deliveredAtNight).toBeLessThan(pacer.delivered);
    expect(naive.deliveredAtNight).toBeGreaterThan(0);
    expect(pacer.deliveredOver24hLate).toBeGreaterThan(0);
    const share = (v: number, of: number) => `${v.toLocaleString('en-US')} (${((100 * v) / of).toFixed(1)}%)`;
    const row = (label: string, p: number, n: number) =>
      new RegExp(`^${label}\\s+${escape(share(p, pacer.delivered))}\\s+${escape(share(n, naive.delivered))}\\s`, 'm');
    expect(lines.join('\n')).toMatch(row('messages delivered at night', pacer.deliveredAtNight, naive.deliveredAtNight));
    expect(lines.join('\n')).toMatch(row('delivered more than 24 h late', pacer.deliveredOver24hLate, naive.deliveredOver24hLate));
    expect(lines.join('\n')).toContain("At night: delivered 21:00–08:00 on the recipient's clock.");
    const report = readFileSync(path.join(dir, 'report.html'), 'utf8');
    expect(report).toContain('<svg');
    // Works offline: nothing is fetched from anywhere (links inside the sample message are text, not loads).
    expect(report).not.toMatch(/(?:src|href|action)\s*=\s*["']?\s*(?:https?:)?\/\/|url\(\s*["']?\s*(?:https?:)?\/\/|@import/i);
    // The personalisation made visible: one recipient's own message, in the terminal and the report.
    const sample = lines.slice(
      lines.indexOf('One message of the campaign (pacer), as its recipient read it:') + 1,
      lines.indexOf('One message of the campaign (pacer), as its recipient read it:') + 5,
    );
    expect(sample[0]).toBe('  [image https://cdn.example.com/spring-sale.jpg]');
    expect(sample[1]).toMatch(/^ {2}Hi (?:\p{L}+|there), our spring sale is on: 20% off everything until Sunday\.$/u);
    expect(sample[3]).toMatch(/^ {2}\[Shop now → https:\/\/shop\.example\.com\/spring\/SPRING-[0-9A-Z]+\] \[Stop promotions\]$/);
    expect(report).toContain(sample[1]?.trim());
    expect(existsSync(path.join(dir, 'pacer-data', 'pacer.sqlite'))).toBe(true);
    // It leaves the way to its dashboard: a token, then serve on the demo's data directory.
    expect(lines.join('\n')).toContain(
      `PACER_DATA_DIR=${path.join(dir, 'pacer-data')} npx pacer serve --no-dispatch   then open http://127.0.0.1:3000/`,
    );
    // Four worlds on the machine's cores.
  }, 240_000);
});
