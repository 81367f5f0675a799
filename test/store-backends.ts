import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import Database from 'better-sqlite3';
import pg from 'pg';
import { onTestFinished } from 'vitest';
import type { Store } from '../src/ports/store.js';
import { openStore, SQLITE_FILE_NAME, type OpenStoreOptions } from '../src/adapters/storage/open-store.js';
import { PostgresExecutor } from '../src/adapters/storage/postgres/postgres-executor.js';
import type { SqlExecutor } from '../src/adapters/storage/sql-executor.js';
import { SqliteExecutor } from '../src/adapters/storage/sqlite/sqlite-executor.js';

/** Test databases: PostgreSQL on loopback (trust auth, database `test`) and SQLite files in temp dirs. */
export const PG_URL = process.env['PACER_TEST_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';

export interface Place {
  /** Another connection to the same database, as a second process would have. */
  open(options?: Pick<OpenStoreOptions, 'readOnly' | 'applicationName'>): Store;
  /** Options that point openStore at this place. */
  options: OpenStoreOptions;
  /** Runs parameterless SQL behind the store's back, to set up states the port cannot reach. */
  raw(sql: string): Promise<void>;
}

/** A bare executor on a place, below the store: to migrate part way and write rows as an older version did. */
export function executorAt(place: Place): SqlExecutor {
  const { databaseUrl, schema, dataDir } = place.options;
  if (databaseUrl !== undefined) return new PostgresExecutor({ connectionString: databaseUrl, schema });
  return SqliteExecutor.open({ file: path.join(dataDir ?? '', SQLITE_FILE_NAME) });
}

export interface TestBackend {
  name: 'sqlite' | 'postgres';
  /** A fresh place of its own (schema or temp dir), removed when the current test finishes. */
  place(): Place;
  /** A migrated store in a fresh place. */
  open(): Promise<Store>;
}

async function dropSchema(schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`); // a name we generated, not input
  } finally {
    await client.end();
  }
}

function tracked(place: Omit<Place, 'open'>): Place {
  const stores: Store[] = [];
  onTestFinished(async () => {
    await Promise.allSettled(stores.map((s) => s.close()));
  });
  return {
    ...place,
    open: (extra = {}) => {
      const store = openStore({ ...place.options, ...extra });
      stores.push(store);
      return store;
    },
  };
}

function sqlitePlace(): Place {
  const dir = mkdtempSync(path.join(tmpdir(), 'pacer-store-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  const raw = (sql: string): Promise<void> => {
    const db = new Database(path.join(dir, SQLITE_FILE_NAME));
    try {
      db.exec(sql);
    } finally {
      db.close();
    }
    return Promise.resolve();
  };
  return tracked({ options: { dataDir: dir }, raw });
}

function postgresPlace(): Place {
  const schema = `pacer_test_${randomBytes(6).toString('hex')}`;
  onTestFinished(() => dropSchema(schema));
  const raw = async (sql: string): Promise<void> => {
    const client = new pg.Client({ connectionString: PG_URL, options: `-c search_path=${schema}` });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  return tracked({ options: { databaseUrl: PG_URL, schema }, raw });
}

function backend(name: TestBackend['name'], place: () => Place): TestBackend {
  return {
    name,
    place,
    open: async () => {
      const store = place().open();
      await store.migrate();
      return store;
    },
  };
}

export const BACKENDS: readonly TestBackend[] = [backend('sqlite', sqlitePlace), backend('postgres', postgresPlace)];
