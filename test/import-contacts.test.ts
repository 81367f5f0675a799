import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore } from '../src/adapters/storage/open-store.js';
import { runCli } from '../src/main/cli.js';
import type { Store } from '../src/ports/store.js';

let dir: string;
let savedDatabaseUrl: string | undefined;

const run = async (...argv: string[]) => {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(
    argv,
    (t) => out.push(t),
    (t) => err.push(t),
  );
  return { code, out: out.join('\n'), err: err.join('\n') };
};

interface Summary {
  accepted: number;
  rejected: number;
  created: number;
  updated: number;
  duplicates: number;
  errors: Array<{ line: number; field: string | null; reason: string; phone: string | null }>;
  errorsNotListed: number;
  notes: Array<{ line: number; note: string }>;
}

const importJson = async (file: string, ...extra: string[]) => {
  const r = await run('import', 'contacts', file, '--json', ...extra);
  return { ...r, summary: JSON.parse(r.out) as Summary };
};

function write(name: string, text: string): string {
  const file = path.join(dir, name);
  writeFileSync(file, text);
  return file;
}

async function withStore<T>(work: (store: Store) => Promise<T>): Promise<T> {
  const store = openStore({ dataDir: dir });
  try {
    return await work(store);
  } finally {
    await store.close();
  }
}

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'pacer-import-'));
  process.env.PACER_DATA_DIR = dir;
  savedDatabaseUrl = process.env.DATABASE_URL;
  delete process.env.DATABASE_URL;
});

afterEach(() => {
  delete process.env.PACER_DATA_DIR;
  if (savedDatabaseUrl !== undefined) process.env.DATABASE_URL = savedDatabaseUrl;
  rmSync(dir, { recursive: true, force: true });
});

const GOOD_CSV = [
  'phone,name,consent_marketing,consent_utility,tags,city,plan',
  '+44 7911 123456,Priya,yes,no,vip;uk,London,gold',
  '+1 (201) 555-0123,John,TRUE,1,us,Newark,',
  '+91 98765 43210,Asha,,y,,Pune,silver',
].join('\n');

describe('pacer import contacts: CSV', () => {
  it('imports every row with E.164 numbers, consent from the import, tags and attributes', async () => {
    const { code, summary } = await importJson(write('people.csv', GOOD_CSV));
    expect(code).toBe(0);
    expect(summary).toMatchObject({ accepted: 3, rejected: 0, created: 3, updated: 0, errors: [] });
    await withStore(async (store) => {
      const priya = await store.findContact({ phoneE164: '+447911123456' });
      expect(priya).toMatchObject({
        name: 'Priya',
        waId: '447911123456',
        tags: ['vip', 'uk'],
        attributes: { city: 'London', plan: 'gold' },
      });
      const consent = await store.getConsent(priya!.id);
      expect(consent.marketing).toMatchObject({ status: 'granted', source: 'import:people.csv' });
      expect(consent.utility).toMatchObject({ status: 'revoked', source: 'import:people.csv' });
      const john = await store.findContact({ phoneE164: '+12015550123' });
      expect(john?.attributes).toEqual({ city: 'Newark' });
      expect(await store.getConsent(john!.id)).toMatchObject({ marketing: { status: 'granted' }, utility: { status: 'granted' } });
      const asha = await store.findContact({ phoneE164: '+919876543210' });
      const ashaConsent = await store.getConsent(asha!.id);
      expect(ashaConsent.marketing).toBeUndefined();
      expect(ashaConsent.utility?.status).toBe('granted');
      // The contact state carries the consent too, so decisions see it.
      const state = await store.loadContactState(priya!.id);
      expect(state?.state.consent.marketing.status).toBe('granted');
    });
  });

  it('records consent at the time of the import', async () => {
    const before = Date.now();
    await importJson(write('people.csv', GOOD_CSV));
    await withStore(async (store) => {
      const priya = await store.findContact({ phoneE164: '+447911123456' });
      const at = (await store.getConsent(priya!.id)).marketing!.at;
      expect(at).toBeGreaterThanOrEqual(before);
      expect(at).toBeLessThanOrEqual(Date.now());
    });
  });

  it('reads quoted fields with commas, doubled quotes and line breaks', async () => {
    const csv = ['phone,name,note', '"+44 7911 123456","Smith, John","said ""hi""', 'then left"', '+447911123457,Ann,"a,b"'].join('\r\n');
    const { code, summary } = await importJson(write('q.csv', csv));
    expect(code).toBe(0);
    expect(summary.accepted).toBe(2);
    await withStore(async (store) => {
      expect(await store.findContact({ phoneE164: '+447911123456' })).toMatchObject({
        name: 'Smith, John',
        attributes: { note: 'said "hi"\nthen left' },
      });
      expect((await store.findContact({ phoneE164: '+447911123457' }))?.attributes).toEqual({ note: 'a,b' });
    });
  });

  it('keeps the good rows and reports each bad one by its line, also after a multi-line field', async () => {
    const csv = [
      'phone,name,consent_marketing', // 1
      '+447911123456,"Two', // 2
      'lines",yes', // 3
      '+44123,Short,yes', // 4
      '+447911123457,Ann,maybe', // 5
      ',Nobody,yes', // 6
      '07911 123458,Local,no', // 7
      '+447911123459,Extra,yes,oops', // 8
      '+447911123460,Fine,no', // 9
      'not a number,Text,', // 10
      '+44 7700 900123,Drama,', // 11
    ].join('\n');
    const { code, summary, err } = await importJson(write('mixed.csv', csv));
    expect(code).toBe(1);
    expect(summary.accepted).toBe(2);
    expect(summary.rejected).toBe(7);
    expect(err).toContain('7 of 9 rows were rejected; the other 2 were imported');
    const byLine = new Map(summary.errors.map((e) => [e.line, e]));
    expect([...byLine.keys()]).toEqual([4, 5, 6, 7, 8, 10, 11]);
    expect(byLine.get(4)).toMatchObject({ field: 'phone', reason: expect.stringMatching(/too short/) });
    expect(byLine.get(5)).toMatchObject({ field: 'consent_marketing', reason: expect.stringMatching(/"maybe" is not a consent value/) });
    expect(byLine.get(6)).toMatchObject({ field: 'phone', reason: 'missing phone number' });
    expect(byLine.get(7)?.reason).toMatch(/no country code.*--default-country/);
    expect(byLine.get(8)).toMatchObject({ field: null, reason: 'has 4 fields, the header has 3' });
    expect(byLine.get(10)?.reason).toMatch(/not a phone number/);
    expect(byLine.get(11)?.reason).toMatch(/not a valid number for \+44/);
    await withStore(async (store) => {
      expect((await store.findContact({ phoneE164: '+447911123456' }))?.name).toBe('Two\nlines');
      expect((await store.findContact({ phoneE164: '+447911123460' }))?.name).toBe('Fine');
      expect(await store.findContact({ phoneE164: '+447911123457' })).toBeNull();
    });
  });

  it('never prints a full phone number, and masks the number of a row refused for another field', async () => {
    const csv = ['phone,consent_marketing', '+447911123457,maybe', '+44 7700 900123,yes', '+4479111234567890,no'].join('\n');
    const human = await run('import', 'contacts', write('m.csv', csv));
    expect(human.code).toBe(1);
    expect(human.out).toContain('line 2 consent_marketing (+44•••••••457)');
    expect(human.out).toMatch(/line 3 phone: \+44•+123 is not a valid number/);
    for (const full of ['7911123457', '7700900123', '79111234567890', '7911 123457']) expect(human.out + human.err).not.toContain(full);
    const json = await importJson(write('m.csv', csv));
    expect(JSON.stringify(json.summary)).not.toMatch(/\d{7}/);
  });

  it('reads numbers without + in the given --default-country', async () => {
    const { code, summary } = await importJson(write('gb.csv', 'phone\n07911 123458\n+1 201 555 0123\n'), '--default-country', 'gb');
    expect(code).toBe(0);
    expect(summary.accepted).toBe(2);
    await withStore(async (store) => expect(await store.findContact({ phoneE164: '+447911123458' })).not.toBeNull());
  });

  it('takes a repeated phone number as an update by the later row, noted rather than refused', async () => {
    const csv = [
      'phone,name,consent_marketing,tags',
      '+447911123456,First,yes,a',
      '+447911123457,Other,,',
      '+44 7911 123456,Second,no,b',
    ].join('\n');
    const { code, summary } = await importJson(write('dup.csv', csv));
    expect(code).toBe(0);
    expect(summary).toMatchObject({
      accepted: 3,
      rejected: 0,
      created: 2,
      duplicates: 1,
      notes: [{ line: 4, note: expect.stringMatching(/line 2/) }],
    });
    await withStore(async (store) => {
      const c = await store.findContact({ phoneE164: '+447911123456' });
      expect(c).toMatchObject({ name: 'Second', tags: ['a', 'b'] });
      expect((await store.getConsent(c!.id)).marketing?.status).toBe('revoked');
      expect((await store.loadContactState(c!.id))?.state.consent.marketing.status).toBe('revoked');
    });
  });

  it('says nothing was imported when every row was rejected', async () => {
    const r = await run('import', 'contacts', write('bad.csv', 'phone,name\n12,A\nnot a number,B\n'));
    expect(r.code).toBe(1);
    expect(r.err).toContain('all 2 rows were rejected; nothing was imported');
    const only = await run('import', 'contacts', write('only.csv', 'phone,name\n12,A\n'));
    expect(only.err).toContain('the only row was rejected; nothing was imported');
    await withStore(async (store) => expect(await store.listContacts(0, 10)).toEqual([]));
    const one = await run('import', 'contacts', write('one.csv', 'phone,name\n12,A\n+447911123456,B\n'));
    expect(one.err).toContain('1 of 2 rows was rejected; the other 1 was imported');
  });

  it('is idempotent: a second import of the same file creates nothing', async () => {
    const file = write('people.csv', GOOD_CSV);
    expect((await importJson(file)).summary).toMatchObject({ created: 3, updated: 0 });
    const again = await importJson(file);
    expect(again.code).toBe(0);
    expect(again.summary).toMatchObject({ accepted: 3, created: 0, updated: 3 });
    await withStore(async (store) => {
      const all = await store.listContacts(0, 100);
      expect(all).toHaveLength(3);
      expect(all.find((c) => c.phoneE164 === '+447911123456')?.tags).toEqual(['vip', 'uk']);
    });
  });

  it('is a usage error, naming the column, when the header has no phone column', async () => {
    const r = await run('import', 'contacts', write('nophone.csv', 'mobile,name\n+447911123456,Priya\n'));
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/no "phone" column \(it has: mobile, name\)/);
    await withStore(async (store) => expect(await store.listContacts(0, 10)).toEqual([]));
  });

  it('imports nothing and succeeds for an empty file or a header alone', async () => {
    for (const text of ['', 'phone,name\n']) {
      const r = await importJson(write('empty.csv', text));
      expect(r.code).toBe(0);
      expect(r.summary).toMatchObject({ accepted: 0, rejected: 0, created: 0 });
    }
    const human = await run('import', 'contacts', write('empty.csv', ''));
    expect(human.out).toBe('empty.csv: no rows to import.');
  });

  it('writes every refused row to --errors as given, with its reasons in a pacer_error column', async () => {
    const errorsFile = path.join(dir, 'rejected.csv');
    const csv = ['phone,consent_utility', '+44123,yes', '+447911123456,sometimes', '+447911123457,no'].join('\n');
    const r = await run('import', 'contacts', write('e.csv', csv), '--errors', errorsFile);
    expect(r.code).toBe(1);
    const lines = readFileSync(errorsFile, 'utf8').trimEnd().split('\n');
    expect(lines).toEqual([
      'phone,consent_utility,pacer_error',
      '+44123,yes,line 2: phone: +44••• is too short for +44',
      '+447911123456,sometimes,"line 3: consent_utility: ""sometimes"" is not a consent value: use yes or no (or true/false, 1/0, y/n), or leave it empty"',
    ]);
  });
});

describe('pacer import contacts: JSON Lines', () => {
  it('imports the same keys, with tags as text or a list and other keys as attributes', async () => {
    const jsonl = [
      JSON.stringify({ phone: '+447911123456', name: 'Priya', consent_marketing: true, tags: 'a;b', city: 'London', score: 7 }),
      '',
      JSON.stringify({ phone: '+447911123457', consent_utility: 'no', tags: ['x', 'y'], nested: { level: 2 } }),
      '{"phone": "+447911123458", "name": ', // 4: cut off
      '[1,2]', // 5
      JSON.stringify({ name: 'No phone' }), // 6
      JSON.stringify({ phone: '+447911123459', consent_marketing: 'perhaps' }), // 7
    ].join('\n');
    const { code, summary } = await importJson(write('people.ndjson', jsonl));
    expect(code).toBe(1);
    expect(summary).toMatchObject({ accepted: 2, rejected: 4 });
    expect(summary.errors.map((e) => [e.line, e.field])).toEqual([
      [4, null],
      [5, null],
      [6, 'phone'],
      [7, 'consent_marketing'],
    ]);
    expect(summary.errors[0]?.reason).toMatch(/not valid JSON/);
    expect(summary.errors[0]?.reason).not.toContain('7911');
    expect(summary.errors[1]?.reason).toBe('must be a JSON object, got an array');
    await withStore(async (store) => {
      expect(await store.findContact({ phoneE164: '+447911123456' })).toMatchObject({
        tags: ['a', 'b'],
        attributes: { city: 'London', score: 7 },
      });
      expect(await store.findContact({ phoneE164: '+447911123457' })).toMatchObject({
        tags: ['x', 'y'],
        attributes: { nested: { level: 2 } },
      });
    });
  });

  it('takes the format from --format when the extension does not say, and refuses an unknown one', async () => {
    const file = write('people.txt', `${JSON.stringify({ phone: '+447911123456' })}\n`);
    expect((await run('import', 'contacts', file)).code).toBe(2);
    expect((await run('import', 'contacts', file, '--format', 'xml')).code).toBe(2);
    expect((await importJson(file, '--format', 'jsonl')).summary.accepted).toBe(1);
  });
});

describe('pacer import contacts: usage and failures', () => {
  it('exits 2 without a file argument or with an unknown --default-country', async () => {
    expect((await run('import', 'contacts')).code).toBe(2);
    const r = await run('import', 'contacts', write('a.csv', GOOD_CSV), '--default-country', 'XX');
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/--default-country "XX"/);
  });

  it('exits 1 when the file cannot be read', async () => {
    const r = await run('import', 'contacts', path.join(dir, 'missing.csv'));
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/cannot read missing.csv: no such file/);
  });

  it('runs as the installed bin against PACER_DATA_DIR', async () => {
    const exec = promisify(execFile);
    const file = write('people.csv', GOOD_CSV);
    const env: NodeJS.ProcessEnv = { ...process.env, PACER_DATA_DIR: dir };
    delete env.DATABASE_URL;
    const ok = await exec('node', ['bin/pacer.js', 'import', 'contacts', file, '--json'], { env });
    expect(JSON.parse(ok.stdout)).toMatchObject({ accepted: 3, created: 3 });
    expect(ok.stderr).toBe(''); // not a terminal: no progress bar
    const bad = write('bad.csv', 'phone\n+44123\n');
    await expect(exec('node', ['bin/pacer.js', 'import', 'contacts', bad], { env })).rejects.toMatchObject({
      code: 1,
      stdout: expect.stringMatching(/line 2 phone/),
    });
    await expect(exec('node', ['bin/pacer.js', 'import', 'contacts'], { env })).rejects.toMatchObject({ code: 2 });
    await withStore(async (store) => expect(await store.findContact({ phoneE164: '+919876543210' })).not.toBeNull());
  });
});
