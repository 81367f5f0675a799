import { writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { MIGRATIONS } from '../src/adapters/storage/migrations.js';
import { openStore } from '../src/adapters/storage/open-store.js';
import { StoreError } from '../src/ports/store.js';
import { BACKENDS } from './store-backends.js';

const T0 = Date.UTC(2026, 0, 5, 9, 0, 0);

function tempDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'pacer-fail-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A loopback port nobody listens on: bound, then released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  server.close();
  await once(server, 'close');
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

describe.each(BACKENDS)('Store failures ($name)', (backend) => {
  it('refuses writes on a read-only store with a typed error naming the operation', async () => {
    const place = backend.place();
    const writer = place.open();
    await writer.migrate();
    await writer.upsertContacts([{ waId: '1' }], T0);
    const reader = place.open({ readOnly: true });
    expect((await reader.findContact({ waId: '1' }))?.waId).toBe('1');
    const error: unknown = await reader.appendInbox({ raw: Buffer.from('{}'), receivedAt: T0, signatureOk: true }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreError);
    expect(error).toMatchObject({ code: 'read_only', operation: 'appendInbox' });
    await expect(reader.upsertContacts([{ waId: '2' }], T0)).rejects.toMatchObject({ code: 'read_only', operation: 'upsertContacts' });
  });

  it('reports a closed store as unavailable', async () => {
    const store = await backend.open();
    await store.close();
    await expect(store.getContact(1)).rejects.toMatchObject({ name: 'StoreError', code: 'unavailable', operation: 'getContact' });
  });

  it('reports a unique clash as a constraint error without the clashing phone number', async () => {
    const store = await backend.open();
    await store.upsertContacts(
      [
        { waId: '1', phoneE164: '+15550001111' },
        { waId: '2', phoneE164: '+15550002222' },
      ],
      T0,
    );
    const error: unknown = await store.upsertContacts([{ waId: '1', phoneE164: '+15550002222' }], T0).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'constraint', operation: 'upsertContacts' });
    expect(String((error as Error).message)).not.toContain('5550002222');
  });

  it('refuses a database migrated by a newer release', async () => {
    const place = backend.place();
    await place.open().migrate();
    await place.raw(`INSERT INTO schema_migrations (version, name, applied_at) VALUES (99, 'from the future', 0)`);
    await expect(place.open().migrate()).rejects.toMatchObject({
      code: 'migration',
      message: expect.stringContaining(`the database is at version 99, newer than this release (${MIGRATIONS.length})`),
    });
  });
});

describe('Store failures when opening', () => {
  it('reports refused PostgreSQL connections as unavailable, without the password', async () => {
    const port = await closedPort();
    const store = openStore({ databaseUrl: `postgres://postgres:hunter2@127.0.0.1:${port}/test` });
    onTestFinished(() => store.close());
    const error: unknown = await store.migrate().catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'StoreError', code: 'unavailable', operation: 'migrate' });
    expect((error as Error).message).toContain('ECONNREFUSED');
    expect((error as Error).message).not.toContain('hunter2');
  });

  it('rejects a DATABASE_URL that is not PostgreSQL without echoing its credentials', () => {
    expect(() => openStore({ databaseUrl: 'mysql://root:s3cret@db/pacer' })).toThrow(
      /DATABASE_URL must be a postgres:\/\/ or postgresql:\/\/ URL, got a mysql: URL/,
    );
    expect(() => openStore({ databaseUrl: 'mysql://root:s3cret@db/pacer' })).not.toThrow(/s3cret/);
  });

  it('reports an unusable SQLite location as unavailable', () => {
    const dir = tempDir();
    const file = path.join(dir, 'not-a-dir');
    writeFileSync(file, 'x');
    expect(() => openStore({ dataDir: file })).toThrow(expect.objectContaining({ code: 'unavailable', operation: 'open' }));
    expect(() => openStore({ dataDir: path.join(dir, 'missing'), readOnly: true })).toThrow(
      expect.objectContaining({ code: 'unavailable', operation: 'open' }),
    );
    // A file that is not a database at all.
    writeFileSync(path.join(dir, 'pacer.sqlite'), 'definitely not sqlite, padded to look like a page'.repeat(100));
    expect(() => openStore({ dataDir: dir })).toThrow(
      expect.objectContaining({ code: 'unavailable', message: expect.stringContaining('SQLITE_NOTADB') }),
    );
  });
});

describe('PostgreSQL connections ended by the server', () => {
  it('fail the transaction with a StoreError, keep the process alive, and the next call reconnects', async () => {
    const backend = BACKENDS.find((b) => b.name === 'postgres');
    if (backend === undefined) throw new Error('postgres backend expected');
    const place = backend.place();
    const name = `pacer-dropped-${process.pid}-${Date.now()}`;
    const store = openStore({ ...place.options, applicationName: name });
    onTestFinished(() => store.close());
    await store.migrate();
    const { ids } = await store.upsertContacts([{ waId: '447700900777' }], T0);
    const observer = place.open();
    let dropped = 0;
    const failed = await store
      .transaction(async (tx) => {
        await tx.getContact(ids[0] ?? -1);
        // Mid-transaction, between two statements, the server ends this process's connections
        // (picked first, then ended one by one: other connections share this server).
        dropped = await terminate(place, name);
        return tx.getContact(ids[0] ?? -1);
      })
      .then(
        () => null,
        (error: unknown) => error,
      );
    expect(dropped).toBeGreaterThan(0);
    expect(failed).toBeInstanceOf(StoreError);
    expect(await store.getContact(ids[0] ?? -1)).toMatchObject({ waId: '447700900777' });
    expect(await observer.getContact(ids[0] ?? -1)).not.toBeNull();
  });
});

async function terminate(place: { options: { databaseUrl?: string | undefined } }, applicationName: string): Promise<number> {
  const pg = (await import('pg')).default;
  const client = new pg.Client({ connectionString: place.options.databaseUrl });
  await client.connect();
  try {
    const pids = (
      await client.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE application_name = $1', [applicationName])
    ).rows.map((r) => r.pid);
    for (const pid of pids) await client.query('SELECT pg_terminate_backend($1)', [pid]);
    return pids.length;
  } finally {
    await client.end();
  }
}
