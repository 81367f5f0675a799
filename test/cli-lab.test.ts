import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../src/main/cli.js';
import { runPacer as run } from './cli-run.js';

let dir = '';
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const CONTACTS = [
  'phone,name,consent_marketing,consent_utility',
  '+919812345678,Asha,yes,yes',
  '+5511987654321,Bruno,yes,yes',
  '+447911123456,Chloe,no,yes',
  '+14155550123,Dan,yes,yes',
  '+628123456789,Eka,yes,yes',
];

function contactsFile(lines: readonly string[]): string {
  const file = path.join(dir, 'contacts.csv');
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

describe('pacer lab', () => {
  it('refuses bad --days, --seed and --strategies with exit code 2, naming the flag and the value', async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'pacer-cli-lab-'));
    for (const days of ['0', 'abc', '61', '1.5', '-3']) {
      expect(await run('lab', '--days', days, '--out', dir)).toMatchObject({
        code: 2,
        err: expect.stringContaining(`--days must be a whole number from 1 to 60, got "${days}"`),
      });
    }
    expect(await run('lab', '--seed', 'x1', '--out', dir)).toMatchObject({
      code: 2,
      err: expect.stringContaining('--seed must be a whole number'),
    });
    expect(await run('lab', '--strategies', 'pacer,retry-forever', '--out', dir)).toMatchObject({
      code: 2,
      err: expect.stringMatching(
        /--strategies: unknown strategy "retry-forever"; known: pacer, pacer-12h, resend-at-once-drop-after-2, .*, or all/,
      ),
    });
    expect(await run('lab', '--default-country', 'XX', '--out', dir)).toMatchObject({
      code: 2,
      err: expect.stringContaining('--default-country "XX"'),
    });
    expect(await run('lab', '--default-country', 'uk', '--out', dir)).toMatchObject({
      code: 2,
      err: expect.stringContaining(
        '--default-country "uk" is not a known two-letter country code (e.g. GB, US, IN); the United Kingdom is GB',
      ),
    });
    // Nothing ran: no report was written.
    expect(existsSync(path.join(dir, 'report.html'))).toBe(false);
  });

  it('refuses an --out that is a file before reading the audience, and leaves the file alone', async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'pacer-cli-lab-'));
    const file = contactsFile(CONTACTS);
    const r = await run('lab', '--audience', file, '--out', file);
    expect(r).toMatchObject({ code: 2, err: expect.stringContaining(`--out ${file}: is a file, not a folder`) });
    expect(r.out).not.toContain('Audience');
    expect(readFileSync(file, 'utf8')).toBe(`${CONTACTS.join('\n')}\n`);
  });

  it('refuses an audience file with a bad row, naming the file, the line and the field', async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'pacer-cli-lab-'));
    const file = contactsFile([...CONTACTS, '12,Nobody,yes,yes', '+5511987654322,Rui,maybe,yes']);
    const r = await run('lab', '--audience', file, '--out', dir);
    expect(r.code).toBe(2);
    expect(r.err).toContain('--audience');
    expect(r.err).toContain('2 rows of contacts.csv refused');
    expect(r.err).toMatch(/contacts\.csv line 7: phone: /);
    expect(r.err).toMatch(/contacts\.csv line 8: consent_marketing: "maybe" is not a consent value/);
    expect(existsSync(path.join(dir, 'report.html'))).toBe(false);
  });

  it('groups rows refused for the same reason into one line naming a few of them', async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'pacer-cli-lab-'));
    const national = Array.from({ length: 30 }, (_, i) => `07911 123${String(100 + i)},P${i},yes,yes`);
    const file = contactsFile([...CONTACTS, ...national, '+5511987654322,Rui,maybe,yes']);
    const r = await run('lab', '--audience', file, '--out', dir);
    expect(r.code).toBe(2);
    expect(r.err).toContain('31 rows of contacts.csv refused:');
    expect(r.err).toMatch(/contacts\.csv lines 7, 8, 9 and 27 more: phone: has no country code: .*--default-country/);
    expect(r.err).toMatch(/contacts\.csv line 37: consent_marketing: "maybe" is not a consent value/);
    expect(r.err.match(/has no country code/g)).toHaveLength(1);
  });

  it('points a size given as --audience to the demo, which takes sizes', async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'pacer-cli-lab-'));
    expect(await run('lab', '--audience', '500', '--out', dir)).toMatchObject({
      code: 2,
      err: expect.stringContaining(
        "--audience 500: the lab's --audience is a contacts file (CSV or JSON Lines); for a simulated audience of 500: pacer demo --audience 500",
      ),
    });
  });

  it('refuses an audience file it cannot read or that has no phone column', async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'pacer-cli-lab-'));
    const missing = path.join(dir, 'nowhere.csv');
    const gone = await run('lab', '--audience', missing, '--out', dir);
    expect(gone.code).not.toBe(0);
    expect(gone.err).toContain('nowhere.csv');
    const noPhone = contactsFile(['name,consent_marketing', 'Asha,yes']);
    const r = await run('lab', '--audience', noPhone, '--out', dir);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/--audience .*contacts\.csv: .*phone/);
  });

  it('refuses an audience file with no contacts, or none in a country the simulator models', async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'pacer-cli-lab-'));
    const empty = await run('lab', '--audience', contactsFile([CONTACTS[0]!]), '--out', dir);
    expect(empty).toMatchObject({ code: 2, err: expect.stringContaining('contacts.csv has no contacts') });
    const french = await run('lab', '--audience', contactsFile([CONTACTS[0]!, '+33612345678,Zoé,yes,yes']), '--out', dir);
    expect(french).toMatchObject({
      code: 2,
      err: expect.stringMatching(/contacts\.csv: no contact is in a country the simulator models \(US, GB, DE, .*\)/),
    });
    // +1 is not only the US: Toronto's 416 is Canada, which the simulator does not model (nor Meta's US pause).
    const canadian = await run('lab', '--audience', contactsFile([CONTACTS[0]!, '+14165550123,Jean,yes,yes']), '--out', dir);
    expect(canadian).toMatchObject({ code: 2, err: expect.stringContaining('no contact is in a country the simulator models') });
  });

  it('counts Canadian numbers among the countries it does not model, not as US ones', async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'pacer-cli-lab-'));
    const file = contactsFile([...CONTACTS, '+14165550123,Jean,yes,yes', '+16045550199,Marie,yes,yes']);
    const r = await run('lab', '--audience', file, '--days', '1', '--strategies', 'send-once', '--out', path.join(dir, 'out'));
    expect(r.code).toBe(0);
    expect(r.out).toContain('7 contacts, ');
    expect(r.out).toContain('2 in countries the simulator does not model');
    // Seven people simulated over the five modelled countries' equal shares (ties to the simulator's first countries).
    expect(r.out).toContain('Countries simulated: GB 2 · US 2 · BR 1 · ID 1 · IN 1.');
  });

  it('refuses an --out it cannot make, naming what is in the way, before running anything', async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'pacer-cli-lab-'));
    const file = contactsFile(CONTACTS);
    const underFile = await run('lab', '--audience', file, '--out', path.join(file, 'sub'));
    expect(underFile).toMatchObject({ code: 2, err: expect.stringContaining(`${file} is a file, not a folder`) });
    expect(underFile.out).not.toContain('Audience');
    // A folder that refuses new entries: a recursive mkdir would never return here.
    const proc = await run('lab', '--audience', file, '--out', '/proc/pacer-lab-nowhere/out');
    expect(proc).toMatchObject({ code: 2, err: expect.stringContaining('cannot make the folder /proc/pacer-lab-nowhere (ENOENT)') });
    expect(proc.out).not.toContain('The same simulated world runs');
  });

  it("runs the chosen strategies on the file's audience and prints the table as JSON", async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'pacer-cli-lab-'));
    const file = contactsFile(CONTACTS);
    const r = await run(
      'lab',
      '--audience',
      file,
      '--days',
      '3',
      '--strategies',
      'send-once,retry-12-24-48h',
      '--seed',
      '7',
      '--out',
      dir,
      '--json',
    );
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const json = JSON.parse(r.out) as {
      run: unknown;
      strategies: string[];
      rows: Array<{ label: string; values: Record<string, unknown> }>;
    };
    // Which run this is, without the terminal's lines: Chloe alone said no to marketing.
    expect(json.run).toEqual({
      days: 3,
      seed: 7,
      audience: {
        file: 'contacts.csv',
        size: 5,
        countries: { IN: 1, BR: 1, GB: 1, US: 1, ID: 1 },
        otherCountries: 0,
        marketingOptIn: 0.8,
        utilityOptIn: 1,
        duplicates: 0,
      },
      warnings: [],
    });
    expect(json.strategies).toEqual(['send-once', 'retry-12-24-48h']);
    const delivered = json.rows.find((x) => x.label === 'delivered messages');
    expect(Object.keys(delivered?.values ?? {})).toEqual(['send-once', 'retry-12-24-48h']);
    expect(json.rows.map((x) => x.label)).toContain('cost of billable deliveries (USD)');
    // Five contacts in the file: five simulated people, for the days and seed given.
    const report = readFileSync(path.join(dir, 'report.html'), 'utf8');
    expect(report).toContain('5 contacts, 3 simulated days, seed 7');
    expect(report).toContain('Pacer lab on contacts.csv');
    // The audience as read, as the terminal showed it before the run.
    expect(report).toContain('<p>Audience contacts.csv: 5 contacts, 80% opted in to marketing, 100% to utility.</p>');
    expect(report).toContain('<p>Countries simulated: BR 1 · GB 1 · ID 1 · IN 1 · US 1.</p>');
  });

  it('reads the file as `pacer import contacts` does: --map names the columns, --delimiter the separator', async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'pacer-cli-lab-'));
    const file = contactsFile([
      'mobile;name;opt_in;consent_utility',
      '+919812345678;Asha;yes;yes',
      '+5511987654321;Bruno;no;yes',
      '+447911123456;Chloe;no;yes',
      '+14155550123;Dan;no;yes',
    ]);
    const out = path.join(dir, 'lab-out');
    const args = ['lab', '--audience', file, '--days', '1', '--strategies', 'send-once', '--out', out];
    // Without the map: the phone column is missing, the hint names a flag the lab takes, and no folder is made.
    const unmapped = await run(...args);
    expect(unmapped.code).toBe(2);
    expect(unmapped.err).toMatch(/contacts\.csv: the header row has no "phone" column .*--map phone=/);
    expect(existsSync(out)).toBe(false);
    const badMap = await run(...args, '--map', 'phone');
    expect(badMap).toMatchObject({ code: 2, err: expect.stringContaining('--map: ') });
    expect(await run(...args, '--delimiter', 'ab')).toMatchObject({ code: 2, err: expect.stringContaining('--delimiter "ab"') });
    const r = await run(...args, '--map', 'phone=mobile,consent_marketing=opt_in', '--delimiter', ';');
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    // One of four opted in to marketing, read from the mapped column.
    expect(r.out).toContain('Audience contacts.csv: 4 contacts, 25% opted in to marketing, 100% to utility.');
  });

  it("replaces an earlier run's Pacer worlds in its folder, so none is left beside a report that is not its own", async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'pacer-cli-lab-'));
    const file = contactsFile(CONTACTS);
    mkdirSync(path.join(dir, 'notes'));
    writeFileSync(path.join(dir, 'notes', 'mine.txt'), 'kept');
    const first = await run('lab', '--audience', file, '--days', '1', '--strategies', 'pacer,pacer-12h', '--out', dir);
    expect(first.code).toBe(0);
    expect(existsSync(path.join(dir, 'pacer-12h-data', 'pacer.sqlite'))).toBe(true);
    const second = await run('lab', '--audience', file, '--days', '1', '--strategies', 'pacer', '--out', dir);
    expect(second.code).toBe(0);
    expect(existsSync(path.join(dir, 'pacer-data', 'pacer.sqlite'))).toBe(true);
    expect(existsSync(path.join(dir, 'pacer-12h-data'))).toBe(false);
    expect(second.out).not.toContain('pacer-12h');
    // Only the lab's own worlds go: anything else in the folder stays.
    expect(readFileSync(path.join(dir, 'notes', 'mine.txt'), 'utf8')).toBe('kept');
    // One day: the wording says so, in the terminal and in the report.
    expect(second.out).toContain('5 contacts, 1 simulated day, one marketing campaign and 0 order-update broadcasts');
    expect(second.out).toMatch(/^Each world's day took: pacer \d+\.\d s\.$/m);
    expect(readFileSync(path.join(dir, 'report.html'), 'utf8')).toContain('5 contacts, 1 simulated day, seed');
  }, 120_000);

  it("refuses an --out whose world folder is this installation's database, and touches nothing", async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'pacer-cli-lab-'));
    const live = path.join(dir, 'pacer-data');
    mkdirSync(live);
    writeFileSync(path.join(live, 'pacer.sqlite'), 'the real one');
    const err: string[] = [];
    const lab = (...argv: string[]) =>
      runCli(
        argv,
        () => undefined,
        (t) => err.push(t),
        { PACER_DATA_DIR: live },
      );
    expect(await lab('lab', '--days', '1', '--strategies', 'send-once', '--out', dir)).toBe(2);
    expect(err.pop()).toContain(`${live} is this installation's database (PACER_DATA_DIR); choose another --out`);
    expect(await lab('demo', '--audience', '100', '--out', dir)).toBe(2);
    expect(err.pop()).toContain("is this installation's database");
    expect(readFileSync(path.join(live, 'pacer.sqlite'), 'utf8')).toBe('the real one');
    expect(existsSync(path.join(dir, 'report.html'))).toBe(false);
  });

  it('refuses the file-reading flags without a file, and a file it cannot read, before making any folder', async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'pacer-cli-lab-'));
    const out = path.join(dir, 'lab-out');
    const bare = await run('lab', '--map', 'phone=mobile', '--delimiter', ';', '--out', out);
    expect(bare).toMatchObject({ code: 2, err: expect.stringContaining('--map, --delimiter: these say how to read --audience') });
    expect((await run('lab', '--default-country', 'GB', '--out', out)).code).toBe(2);
    // A folder where the file should be: unreadable, exit 1 as for the import.
    const folder = path.join(dir, 'contacts.csv');
    mkdirSync(folder);
    const unreadable = await run('lab', '--audience', folder, '--out', out);
    expect(unreadable.code).toBe(1);
    expect(unreadable.err).toContain('it is not a file');
    expect(existsSync(out)).toBe(false);
  });

  it('reads JSON Lines with --format, as the import does', async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'pacer-cli-lab-'));
    const file = path.join(dir, 'people.txt');
    writeFileSync(
      file,
      `${[
        { phone: '+919812345678', consent_marketing: 'yes', consent_utility: 'yes' },
        { phone: '+447911123456', consent_marketing: 'no', consent_utility: 'yes' },
      ]
        .map((x) => JSON.stringify(x))
        .join('\n')}\n`,
    );
    const r = await run('lab', '--audience', file, '--format', 'jsonl', '--days', '1', '--strategies', 'send-once', '--out', dir);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toContain('Audience people.txt: 2 contacts, 50% opted in to marketing, 100% to utility.');
  });

  it('sends order updates only to the share that consented to utility, and warns when nobody did', async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'pacer-cli-lab-'));
    // British numbers (no per-user cap, no US pause), none opted in to marketing: what is delivered is order updates.
    const people = (utility: (i: number) => string) =>
      contactsFile([
        'phone,consent_marketing,consent_utility',
        ...Array.from({ length: 60 }, (_, i) => `+447911123${String(100 + i)},no,${utility(i)}`),
      ]);
    const delivered = async (file: string) => {
      const r = await run('lab', '--audience', file, '--days', '2', '--strategies', 'pacer,send-once', '--out', path.join(dir, 'out'));
      expect(r.code).toBe(0);
      const row = /^delivered messages\s+(\d+)\D+?(\d+)/m.exec(r.out);
      expect(row, r.out).not.toBeNull();
      return { r, values: { pacer: Number(row![1]), 'send-once': Number(row![2]) } };
    };
    const everyone = await delivered(people(() => 'yes'));
    expect(everyone.r.out).toContain('0% opted in to marketing, 100% to utility');
    expect(everyone.values['pacer']).toBeGreaterThan(0);
    expect(everyone.values['send-once']).toBe(everyone.values['pacer']);
    const half = await delivered(people((i) => (i % 2 === 0 ? 'yes' : 'no')));
    expect(half.r.out).toContain('0% opted in to marketing, 50% to utility');
    expect(half.values['pacer']).toBeLessThan(everyone.values['pacer']!);
    expect(half.values['send-once']).toBe(half.values['pacer']);
    const nobody = await delivered(people(() => 'no'));
    expect(nobody.r.out).toContain('Warning: no contact in contacts.csv consented to utility, so the order updates reach nobody');
    expect(nobody.r.out).toContain('Warning: no contact in contacts.csv consented to marketing, so the campaign reaches nobody');
    expect(nobody.values).toEqual({ pacer: 0, 'send-once': 0 });
  }, 120_000);

  it("names the file's own consent column in the warning when --map renamed it", async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'pacer-cli-lab-'));
    const file = contactsFile(['Mobile,Marketing OK', ...Array.from({ length: 5 }, (_, i) => `+447911123${String(100 + i)},no`)]);
    const args = ['lab', '--audience', file, '--map', 'phone=Mobile,consent_marketing=Marketing OK', '--days', '1'];
    const r = await run(...args, '--strategies', 'send-once', '--out', path.join(dir, 'out'));
    expect(r.code).toBe(0);
    expect(r.out).toContain('consented to marketing, so the campaign reaches nobody (column Marketing OK).');
    // The file has no utility column at all: said so, with the way to name one.
    expect(r.out).toContain(
      'Warning: contacts.csv has no consent_utility column (if it has another name: --map consent_utility=<column>), so nobody consented to utility and the order updates reach nobody.',
    );
    // In JSON, where the terminal's lines are not, the warnings are part of the run.
    const asJson = await run(...args, '--strategies', 'send-once', '--out', path.join(dir, 'out'), '--json');
    expect(asJson.code).toBe(0);
    expect((JSON.parse(asJson.out) as { run: { warnings: string[] } }).run.warnings).toEqual([
      'no contact in contacts.csv consented to marketing, so the campaign reaches nobody (column Marketing OK).',
      'contacts.csv has no consent_utility column (if it has another name: --map consent_utility=<column>), so nobody consented to utility and the order updates reach nobody.',
    ]);
  });

  it('says how many rows repeated a number, merged as the import merges them', async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'pacer-cli-lab-'));
    const file = contactsFile([...CONTACTS, '+919812345678,Asha,no,yes']);
    const r = await run('lab', '--audience', file, '--days', '1', '--strategies', 'send-once', '--out', path.join(dir, 'out'));
    expect(r.code).toBe(0);
    // The repeat's "no" wins, as in `pacer import contacts`: three of five opted in to marketing.
    expect(r.out).toContain(
      "Audience contacts.csv: 5 contacts, 60% opted in to marketing, 100% to utility, 1 row repeating an earlier row's number (merged into one contact each, as the import does).",
    );
  });

  it('runs from any folder: its worlds find their TypeScript loader from the install, not the working directory', async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'pacer-cli-lab-'));
    const file = contactsFile(CONTACTS);
    const bin = path.resolve(import.meta.dirname, '../bin/pacer.js');
    const args = [bin, 'lab', '--audience', file, '--days', '1', '--strategies', 'send-once', '--out', path.join(dir, 'out')];
    const { stdout } = await promisify(execFile)('node', args, { cwd: dir });
    expect(stdout).toMatch(/^Finished in \d+\.\d s\.$/m);
  }, 120_000);

  it('prints progress and the table when not asked for JSON', async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'pacer-cli-lab-'));
    const file = contactsFile(CONTACTS);
    const r = await run('lab', '--audience', file, '--days', '2', '--strategies', 'bounce-blacklist', '--out', dir);
    expect(r.code).toBe(0);
    expect(r.out).toContain('Audience contacts.csv: 5 contacts, 80% opted in to marketing, 100% to utility.');
    expect(r.out).toContain('Countries simulated: BR 1 · GB 1 · ID 1 · IN 1 · US 1.');
    expect(r.out).toMatch(/bounce-blacklist day 2\/2/);
    expect(r.out).toMatch(/^delivered messages\s+\d+$/m);
    // Two days, not a week; one broadcast, not "1 broadcasts".
    expect(r.out).toContain('one marketing campaign and 1 order-update broadcast, seed');
    expect(r.out).toMatch(/^Each world's 2 days took: bounce-blacklist \d+\.\d s\.$/m);
    expect(r.out).toContain(`Report: ${path.join(dir, 'report.html')}`);
  });

  it('prints a progress line when a world finishes, and otherwise every few seconds, not for every world-day', async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'pacer-cli-lab-'));
    const file = contactsFile(CONTACTS);
    const strategies = ['send-once', 'bounce-blacklist', 'retry-daily-7d', 'resend-at-once-drop-after-2'];
    const r = await run('lab', '--audience', file, '--days', '3', '--strategies', strategies.join(','), '--out', dir);
    expect(r.code).toBe(0);
    const progress = r.out.split('\n').filter((l) => / day \d\/3/.test(l));
    // Four worlds of three days each, twelve world-days, in a few seconds: a line as each world ends,
    // the first world-day's line, and no more than one line per five seconds besides.
    expect(progress.length).toBeGreaterThanOrEqual(2);
    expect(progress.length).toBeLessThan(12);
    expect(progress.at(-1)).toContain(strategies.map((s) => `${s} day 3/3`).join(' · '));
  });
});
