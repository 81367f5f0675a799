import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../src/main/cli.js';
import { defaultDemoPlan } from '../src/main/demo/demo-plan.js';
import { runPacer as run } from './cli-run.js';

let dir = '';
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('pacer demo', () => {
  it('runs a small world through the command line, and refuses a bad audience with exit code 2', async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'pacer-cli-demo-'));
    for (const audience of ['abc', '99', '1.5']) {
      expect(await run('demo', '--audience', audience, '--out', dir)).toMatchObject({
        code: 2,
        err: expect.stringContaining('--audience must be a whole number of at least 100'),
      });
    }
    // A file where a size belongs: the lab takes files.
    expect(await run('demo', '--audience', 'contacts.csv', '--out', dir)).toMatchObject({
      code: 2,
      err: expect.stringContaining(
        '--audience must be a whole number of at least 100; to run on your own file: pacer lab --audience contacts.csv',
      ),
    });
    const r = await run('demo', '--audience', '300', '--out', dir);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/pacer day 7\/7/);
    expect(r.out).toMatch(/contacts wrongly suppressed\s+0\s+\d+/);
    expect(existsSync(path.join(dir, 'report.html'))).toBe(true);
    // Four worlds on the machine's cores.
  }, 240_000);

  it('prints the table as JSON with --json, as the lab does, and nothing else on standard output', async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'pacer-cli-demo-'));
    const r = await run('demo', '--audience', '100', '--out', dir, '--json');
    expect(r.code).toBe(0);
    const json = JSON.parse(r.out) as { strategies: string[]; rows: Array<{ label: string; values: Record<string, number> }> };
    expect(json.strategies).toEqual(['pacer', 'resend-at-once-drop-after-2', 'retry-12-24-48h', 'bounce-blacklist']);
    const suppressed = json.rows.find((x) => x.label === 'contacts wrongly suppressed');
    expect(suppressed?.values['pacer']).toBe(0);
    expect(existsSync(path.join(dir, 'report.html'))).toBe(true);
  }, 240_000);

  it("defaults to the plan's audience, and says so in its help", async () => {
    const help = await run('demo', '--help');
    const lab = await run('lab', '--help');
    const shown = `${help.out}${help.err}`;
    // The README promises 10,000 and a run within a minute at that size.
    expect(shown).toContain('(default: "10000")');
    expect(`${lab.out}${lab.err}`).toContain("default: the demo's 10,000");
    expect(defaultDemoPlan().audience).toBe(10_000);
  });

  it('takes the flags it is not given from PACER_DEMO_AUDIENCE and PACER_DEMO_DIR, as npm run demo does', async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'pacer-cli-demo-'));
    const err: string[] = [];
    const demo = (argv: string[], env: Record<string, string>) =>
      runCli(
        ['demo', ...argv],
        () => undefined,
        (t) => err.push(t),
        env,
      );
    expect(await demo([], { PACER_DEMO_AUDIENCE: '99' })).toBe(2);
    expect(err.pop()).toMatch(/PACER_DEMO_AUDIENCE/);
    // A flag wins over the environment.
    expect(await demo(['--audience', '99'], { PACER_DEMO_AUDIENCE: '5000' })).toBe(2);
    expect(err.pop()).toMatch(/--audience must be a whole number of at least 100/);
    // A file where the folder should be: the demo stops at once, naming the folder it was given, as a
    // usage error (2) like the lab's --out: the folder is the user's to fix.
    const notADir = path.join(dir, 'not-a-folder');
    writeFileSync(notADir, '');
    expect(await demo(['--audience', '100'], { PACER_DEMO_DIR: notADir })).toBe(2);
    expect(err.pop()).toContain(notADir);
  });
});
