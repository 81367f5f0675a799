import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ContactSource, SourceRow } from '../src/app/contact-source.js';
import { importContacts, type RowRejection } from '../src/app/import-contacts.js';
import { DEFAULT_POLICY } from '../src/core/policy.js';
import { StoreError, type Store, type TxStore } from '../src/ports/store.js';
import { runPacer as run } from './cli-run.js';
import { BACKENDS, type Place } from './store-backends.js';

/** The export formats users have: digits without +, their own column names, `;`, errors fixed and imported again. */
const ENV = ['PACER_DATA_DIR', 'DATABASE_URL', 'PACER_DB_SCHEMA'] as const;
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'pacer-import-formats-'));
});
afterEach(() => {
  for (const name of ENV) delete process.env[name];
  rmSync(dir, { recursive: true, force: true });
});

function point(place: Place): void {
  process.env.PACER_DATA_DIR = place.options.dataDir ?? dir;
  if (place.options.databaseUrl !== undefined) process.env.DATABASE_URL = place.options.databaseUrl;
  if (place.options.schema !== undefined) process.env.PACER_DB_SCHEMA = place.options.schema;
}

function write(name: string, text: string): string {
  const file = path.join(dir, name);
  writeFileSync(file, text);
  return file;
}

async function withStore<T>(place: Place, work: (store: Store) => Promise<T>): Promise<T> {
  const store = place.open();
  try {
    return await work(store);
  } finally {
    await store.close();
  }
}

interface Summary {
  accepted: number;
  rejected: number;
  created: number;
  errors: Array<{ line: number; field: string | null; reason: string; phone: string | null }>;
}

describe.each(BACKENDS)('import formats ($name)', (backend) => {
  it('reads digits without + as international numbers, national ones in the default country, and refuses the ambiguous', async () => {
    const place = backend.place();
    point(place);
    const csv = ['phone,name', '6283660174684,Dewi', '447911123456,Amy', '(201) 555-0123,Bo', '2015550123,Cy', '5215512345678,Di'].join(
      '\n',
    );
    const errorsFile = path.join(dir, 'errors.csv');
    const r = await run('import', 'contacts', write('crm.csv', csv), '--default-country', 'US', '--json', '--errors', errorsFile);
    expect(r.code).toBe(1);
    const summary = JSON.parse(r.out) as Summary;
    expect(summary).toMatchObject({ accepted: 3, rejected: 2, created: 3 });
    expect(summary.errors.map((e) => [e.line, e.field])).toEqual([
      [5, 'phone'],
      [6, 'phone'],
    ]);
    expect(summary.errors[0]!.reason).toMatch(/ambiguous: .*valid US number; write it with \+/);
    // The terminal sees masked numbers only; the errors file has the rows as given, to be fixed.
    expect(r.out).not.toContain('2015550123');
    expect(readFileSync(errorsFile, 'utf8')).toContain('\n2015550123,Cy,');
    await withStore(place, async (store) => {
      expect((await store.findContact({ phoneE164: '+6283660174684' }))?.name).toBe('Dewi');
      expect((await store.findContact({ phoneE164: '+447911123456' }))?.name).toBe('Amy');
      expect((await store.findContact({ phoneE164: '+12015550123' }))?.name).toBe('Bo');
    });
  });

  it('maps columns named otherwise and reads a ; file, told from its header or given', async () => {
    const place = backend.place();
    point(place);
    const csv = ['Telefon;Name;Opt-in;Stadt', '+4915123456789;"Müller; Anna";ja;Berlin', '4915123456780;Jan;no;Köln'].join('\n');
    const file = write('export.csv', csv);
    const bad = await run('import', 'contacts', file, '--map', 'phone=Phone Number');
    expect(bad).toMatchObject({
      code: 2,
      err: expect.stringMatching(/--map phone="Phone Number": export\.csv has no column "Phone Number"/),
    });
    const unmapped = await run('import', 'contacts', file);
    expect(unmapped).toMatchObject({ code: 2, err: expect.stringMatching(/no "phone" column .*Telefon.*--map phone=/) });

    const r = await run('import', 'contacts', file, '--map', 'phone=Telefon,name="Name"', '--map', 'consent_marketing=Opt-in', '--json');
    // "ja" is no consent value Pacer knows: that row is refused, the other imported with its consent.
    expect(r.code).toBe(1);
    expect(JSON.parse(r.out)).toMatchObject({ accepted: 1, rejected: 1, errors: [{ line: 2, field: 'Opt-in' }] });
    const again = await run(
      'import',
      'contacts',
      write('fixed.csv', csv.replace(';ja;', ';yes;')),
      '--delimiter',
      ';',
      '--map',
      'phone=Telefon,consent_marketing=Opt-in',
    );
    expect(again.code).toBe(0);
    await withStore(place, async (store) => {
      const anna = await store.findContact({ phoneE164: '+4915123456789' });
      expect(anna).toMatchObject({ name: 'Müller; Anna', attributes: { Stadt: 'Berlin' } });
      expect((await store.getConsent(anna!.id)).marketing?.status).toBe('granted');
      const jan = await store.findContact({ phoneE164: '+4915123456780' });
      expect((await store.getConsent(jan!.id)).marketing?.status).toBe('revoked');
    });
  });

  it('imports a fixed errors file as it is, and records no consent twice when a file is imported again', async () => {
    const place = backend.place();
    point(place);
    const csv = ['phone,consent_marketing,city', '+447911123456,yes,Leeds', '+447911123457,maybe,York'].join('\n');
    const file = write('list.csv', csv);
    const errorsFile = path.join(dir, 'list-errors.csv');
    expect((await run('import', 'contacts', file, '--errors', errorsFile)).code).toBe(1);
    const fixed = readFileSync(errorsFile, 'utf8').replace(',maybe,', ',no,');
    expect(fixed.split('\n')[0]).toBe('phone,consent_marketing,city,pacer_error');
    expect((await run('import', 'contacts', write('list-fixed.csv', fixed))).code).toBe(0);
    // The same file again, and the fixed one again: nothing new to record.
    expect((await run('import', 'contacts', path.join(dir, 'list-fixed.csv'))).code).toBe(0);
    expect((await run('import', 'contacts', write('list-ok.csv', csv.replace(',maybe,', ',no,')))).code).toBe(0);
    await withStore(place, async (store) => {
      const york = await store.findContact({ phoneE164: '+447911123457' });
      expect(york?.attributes).toEqual({ city: 'York' }); // pacer_error is no attribute
      expect((await store.consentHistory(york!.id)).map((c) => c.status)).toEqual(['revoked']);
      const leeds = await store.findContact({ phoneE164: '+447911123456' });
      expect((await store.consentHistory(leeds!.id)).map((c) => c.status)).toEqual(['granted']);
    });
    // A change is recorded, once.
    expect((await run('import', 'contacts', write('list-changed.csv', csv.replace(',maybe,', ',yes,')))).code).toBe(0);
    await withStore(place, async (store) => {
      const york = await store.findContact({ phoneE164: '+447911123457' });
      expect((await store.consentHistory(york!.id)).map((c) => c.status)).toEqual(['revoked', 'granted']);
    });
  });

  it('writes refused JSON Lines rows back as JSON with their reasons, and refuses NUL text alike on every backend', async () => {
    const place = backend.place();
    point(place);
    const jsonl = [
      JSON.stringify({ phone: '+447911123456', note: { text: 'a\u0000b' } }),
      '{"phone": "+447911123457", ',
      JSON.stringify({ phone: '+447911123458', name: 'Ok' }),
    ].join('\n');
    const errorsFile = path.join(dir, 'e.jsonl');
    const r = await run('import', 'contacts', write('p.jsonl', jsonl), '--errors', errorsFile, '--json');
    expect(r.code).toBe(1);
    expect(JSON.parse(r.out)).toMatchObject({
      accepted: 1,
      rejected: 2,
      errors: [
        { line: 1, field: 'note' },
        { line: 2, field: null },
      ],
    });
    const written = readFileSync(errorsFile, 'utf8')
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(written[0]).toEqual({
      phone: '+447911123456',
      note: { text: 'a\u0000b' },
      pacer_error: expect.stringMatching(/^line 1: note: contains a NUL/),
    });
    expect(written[1]).toEqual({ pacer_error: expect.stringMatching(/^line 2: not valid JSON/), pacer_raw: '{"phone": "+447911123457", ' });
  });

  it('sets aside the rows the database refuses, naming their lines, and imports every other row', async () => {
    const store = await backend.open();
    try {
      const lines = ['+447911123401', '+447911123402', '+447911123403', '+447911123404', '+447911123405'];
      const refused = new Set(['+447911123402', '+447911123404']);
      const rejected: RowRejection[] = [];
      const summary = await importContacts(refusing(store, refused), source(lines), {
        defaultCountry: null,
        policy: DEFAULT_POLICY,
        now: Date.UTC(2026, 11, 1),
        batchRows: 3,
        onRejected: (r) => void rejected.push(r),
      });
      expect(summary).toMatchObject({ accepted: 3, rejected: 2, created: 3 });
      expect(rejected.map((r) => [r.line, r.phone, r.raw])).toEqual([
        [3, '+44•••••••402', '+447911123402'],
        [5, '+44•••••••404', '+447911123404'],
      ]);
      expect(rejected[0]!.errors[0]!.reason).toMatch(/^the database refused this row: upsertContacts: .*invalid input/);
      for (const phone of lines)
        expect(await store.findContact({ phoneE164: phone })).toEqual(refused.has(phone) ? null : expect.anything());

      // A database that cannot be reached is no data error: the import stops, and says so.
      const down = refusing(store, new Set(lines), 'unavailable');
      await expect(importContacts(down, source(lines), { defaultCountry: null, policy: DEFAULT_POLICY, now: 0 })).rejects.toThrow(
        /connection lost/,
      );
    } finally {
      await store.close();
    }
  });
});

function source(phones: readonly string[]): ContactSource {
  async function* rows(): AsyncGenerator<SourceRow> {
    yield { kind: 'header', line: 1, columns: ['phone'], raw: 'phone', delimiter: ',' };
    for (const [i, phone] of phones.entries()) yield { kind: 'row', line: i + 2, values: new Map([['phone', phone]]), raw: phone };
  }
  return { name: 'rows', rows: rows(), totalBytes: 0, bytesRead: () => 0 };
}

/** The real store, whose transactions refuse contacts with these numbers as PostgreSQL refuses bad data. */
function refusing(store: Store, phones: ReadonlySet<string>, code: 'invalid_data' | 'unavailable' = 'invalid_data'): Store {
  const refuse = (tx: TxStore): TxStore =>
    new Proxy(tx, {
      get(target, key, receiver) {
        if (key !== 'upsertContacts') return Reflect.get(target, key, receiver) as unknown;
        return (contacts: Parameters<TxStore['upsertContacts']>[0], now: number) => {
          if (contacts.some((c) => c.phoneE164 != null && phones.has(c.phoneE164))) {
            const why = code === 'unavailable' ? 'connection lost' : 'PostgreSQL 22P05: invalid input: unsupported Unicode escape sequence';
            return Promise.reject(new StoreError(code, 'upsertContacts', why));
          }
          return target.upsertContacts(contacts, now);
        };
      },
    });
  return new Proxy(store, {
    get(target, key, receiver) {
      if (key !== 'transaction') return Reflect.get(target, key, receiver) as unknown;
      return <T>(work: (tx: TxStore) => Promise<T>) => target.transaction((tx) => work(refuse(tx)));
    },
  });
}
