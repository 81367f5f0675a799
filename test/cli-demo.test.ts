import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runPacer as run } from './cli-run.js';

let dir = '';
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('pacer demo', () => {
  it('runs a small world through the command line, and refuses a bad audience with exit code 2', async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'pacer-cli-demo-'));
    for (const audience of ['abc', '99', '1.5']) {
      expect(await run('demo', '--audience', audience, '--out', dir)).toMatchObject({ code: 2, err: expect.stringContaining('--audience must be a whole number of at least 100') });
    }
    const r = await run('demo', '--audience', '300', '--out', dir);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/day 7\/7 Pacer/);
    expect(r.out).toMatch(/contacts wrongly suppressed\s+0\s+\d+/);
    expect(existsSync(path.join(dir, 'report.html'))).toBe(true);
  });
});
