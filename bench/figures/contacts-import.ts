import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openContactSource } from '../../src/adapters/import/open-contact-source.js';
import { openStore } from '../../src/adapters/storage/open-store.js';
import { importContacts } from '../../src/app/import-contacts.js';
import { DEFAULT_POLICY } from '../../src/core/policy.js';
import type { Benchmark } from '../harness/types.js';

interface Ctx {
  dir: string;
  file: string;
  rows: number;
  runs: number;
}

/** A realistic export: varied number formats, consent for both categories, tags and two attributes. */
async function writeCsv(file: string, rows: number): Promise<void> {
  const out = createWriteStream(file);
  out.write('phone,name,consent_marketing,consent_utility,tags,city,plan\n');
  const consent = ['yes', 'no', '', 'true', 'Y'];
  for (let i = 0; i < rows; i++) {
    const d = `7911${String(i).padStart(6, '0')}`;
    const phone = i % 3 === 0 ? `+44${d}` : i % 3 === 1 ? `+44 ${d.slice(0, 4)} ${d.slice(4)}` : `"+44 (0) ${d}"`;
    const line = `${phone},"Person ${i}, Jr",${consent[i % 5]},${consent[(i + 2) % 5]},t${i % 9};all,City ${i % 40},${i % 2 ? 'gold' : 'basic'}\n`;
    if (!out.write(line)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}

const benchmark: Benchmark<Ctx> = {
  name: 'contacts-import',
  row: 'csv-import',
  figure:
    'Contacts imported per second from CSV: parse, validate (E.164, consent), upsert with consent history and contact state, SQLite, into an empty database',
  against: 'parsing the same file alone (streamed CSV records, no validation, no storage)',
  target: '≥ 50,000 rows/s',
  unit: 'rows/s',
  async setup({ quick }) {
    const dir = mkdtempSync(path.join(tmpdir(), 'pacer-bench-import-'));
    const rows = quick ? 2_000 : 50_000;
    const file = path.join(dir, 'contacts.csv');
    await writeCsv(file, rows);
    return { dir, file, rows, runs: 0 };
  },
  async pacer(ctx) {
    // A fresh database each round, opened and migrated off the clock: the figure is the import alone.
    const dataDir = path.join(ctx.dir, `db-${ctx.runs++}`);
    const store = openStore({ dataDir });
    try {
      await store.migrate();
      const start = performance.now();
      const summary = await importContacts(store, await openContactSource(ctx.file, 'csv'), {
        defaultCountry: null,
        policy: DEFAULT_POLICY,
        now: 1_760_000_000_000,
      });
      const seconds = (performance.now() - start) / 1000;
      if (summary.accepted !== ctx.rows || summary.created !== ctx.rows)
        throw new Error(`contacts-import: ${summary.accepted} accepted, ${summary.created} created of ${ctx.rows} rows`);
      return { value: ctx.rows / seconds };
    } finally {
      await store.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  },
  async reference(ctx) {
    const start = performance.now();
    const source = await openContactSource(ctx.file, 'csv');
    let rows = 0;
    for await (const row of source.rows) if (row.kind === 'row') rows += 1;
    const seconds = (performance.now() - start) / 1000;
    if (rows !== ctx.rows) throw new Error(`contacts-import reference: parsed ${rows} of ${ctx.rows} rows`);
    return { value: rows / seconds };
  },
  teardown(ctx) {
    rmSync(ctx.dir, { recursive: true, force: true });
  },
  meets: ({ pacer }) => pacer.median >= 50_000,
};

export default benchmark;
