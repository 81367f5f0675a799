import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openContactSource } from '../src/adapters/import/open-contact-source.js';
import { openStore } from '../src/adapters/storage/open-store.js';
import { importContacts } from '../src/app/import-contacts.js';
import { DEFAULT_POLICY } from '../src/core/policy.js';
import type { Store } from '../src/ports/store.js';

const ROWS = 200_000;
let dir: string;
let store: Store;
let gc: () => void;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'pacer-import-memory-'));
  store = openStore({ dataDir: dir });
  await store.migrate();
  v8.setFlagsFromString('--expose-gc');
  gc = vm.runInNewContext('gc') as () => void;
});

afterAll(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Writes the file through a stream, so the test itself never holds it in memory either. */
async function writeRows(file: string): Promise<number> {
  const out = createWriteStream(file);
  const filler = 'lorem ipsum dolor sit amet '.repeat(4);
  out.write('phone,name,tags,city,notes\n');
  for (let i = 0; i < ROWS; i++) {
    const line = `+447911${String(i).padStart(6, '0')},Person ${i},t${i % 7};all,City ${i % 50},"${filler}${i}"\n`;
    if (!out.write(line)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
  return out.bytesWritten;
}

it('imports 200,000 rows with memory that does not grow with the file', { timeout: 240_000 }, async () => {
  const file = path.join(dir, 'big.csv');
  const bytes = await writeRows(file);
  expect(bytes).toBeGreaterThan(25_000_000);
  gc();
  const used = () => {
    const m = process.memoryUsage();
    return m.heapUsed + m.arrayBuffers;
  };
  const before = used();
  let peak = before;
  let lastBytes = 0;
  const summary = await importContacts(store, await openContactSource(file, 'csv'), {
    defaultCountry: null,
    policy: DEFAULT_POLICY,
    now: 1_760_000_000_000,
    onProgress: (p) => {
      lastBytes = p.bytesRead;
      // Live memory at each batch boundary: what the import holds, not garbage awaiting collection.
      if (p.rows % 20_000 === 0) {
        gc();
        peak = Math.max(peak, used());
      }
    },
  });
  gc();
  const after = used();
  expect(summary).toMatchObject({ accepted: ROWS, rejected: 0, created: ROWS, duplicates: 0 });
  expect(lastBytes).toBe(bytes);
  // The file is ~30 MB of text and would be well over 100 MB as parsed rows; a streamed import holds
  // one batch, the read buffer and 24 bytes per distinct number for spotting repeats.
  expect(peak - before).toBeLessThan(64 * 1024 * 1024);
  expect(after - before).toBeLessThan(32 * 1024 * 1024);
  const sample = await store.findContact({ phoneE164: '+447911199999' });
  expect(sample).toMatchObject({ name: 'Person 199999', tags: [`t${199_999 % 7}`, 'all'], attributes: { city: `City ${199_999 % 50}` } });
});
