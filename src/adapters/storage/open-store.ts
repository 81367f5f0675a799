import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { StoreError, type Store } from '../../ports/store.js';
import { PostgresExecutor } from './postgres/postgres-executor.js';
import { createSqlStore } from './sql-store.js';
import { SqliteExecutor } from './sqlite/sqlite-executor.js';

export interface OpenStoreOptions {
  /** A `postgres://` or `postgresql://` URL selects PostgreSQL; absent selects SQLite in `dataDir`. */
  databaseUrl?: string | undefined;
  /** Folder of the SQLite file `pacer.sqlite`; default `./data`. */
  dataDir?: string | undefined;
  /** PostgreSQL schema for the tables (default `public`); tests use one per file. */
  schema?: string | undefined;
  /** PostgreSQL: connections in the pool (default 10). */
  poolSize?: number | undefined;
  /** PostgreSQL: `application_name` of the connections, so an operator can find them (default `pacer`). */
  applicationName?: string | undefined;
  /** Refuse every write (reporting tools); SQLite then needs an existing file. */
  readOnly?: boolean | undefined;
  /** SQLite durability: `normal` (default, survives process crashes) or `full` (also power loss). */
  synchronous?: 'normal' | 'full' | undefined;
  /** SQLite: checkpoint the WAL from a background thread (for long-running engines). */
  backgroundCheckpoint?: boolean | undefined;
  /** Source of time for migration bookkeeping. */
  clock?: (() => number) | undefined;
}

export const SQLITE_FILE_NAME = 'pacer.sqlite';

/** Describes a URL for messages without its credentials. */
function redact(url: string): string {
  const scheme = /^[a-z][a-z0-9+.-]*:/i.exec(url)?.[0];
  return scheme ? `a ${scheme} URL` : 'a value without a scheme';
}

/** Picks the backend from the configuration; does not migrate (call `store.migrate()`). */
export function openStore(options: OpenStoreOptions = {}): Store {
  const url = options.databaseUrl?.trim();
  if (url) {
    if (!/^postgres(ql)?:\/\//i.test(url)) {
      throw new StoreError('unavailable', 'open', `DATABASE_URL must be a postgres:// or postgresql:// URL, got ${redact(url)}`);
    }
    const executor = new PostgresExecutor({
      connectionString: url,
      schema: options.schema,
      readOnly: options.readOnly,
      maxConnections: options.poolSize,
      applicationName: options.applicationName,
    });
    return createSqlStore(executor, options.clock);
  }
  const dir = path.resolve(options.dataDir ?? './data');
  if (!options.readOnly) {
    try {
      mkdirSync(dir, { recursive: true });
    } catch (error) {
      throw new StoreError('unavailable', 'open', `cannot create the data directory ${dir}`, { cause: error });
    }
  }
  const executor = SqliteExecutor.open({
    file: path.join(dir, SQLITE_FILE_NAME),
    readOnly: options.readOnly,
    synchronous: options.synchronous,
    backgroundCheckpoint: options.backgroundCheckpoint,
  });
  return createSqlStore(executor, options.clock);
}
