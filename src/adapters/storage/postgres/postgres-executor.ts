import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { StoreError } from '../../../ports/store.js';
import { POSTGRES } from '../capabilities.js';
import type { SqlExecutor, SqlParam, SqlRow, SqlRunner } from '../sql-executor.js';
import { storableText } from '../storable-text.js';
import { copyLines } from './copy-text.js';
import { postgresStoreError } from './postgres-errors.js';
import type { QueuedWatch } from '../../../ports/work-signal.js';
import { workChannel } from './work-channel.js';
import { listenForWork } from './work-listener.js';

export interface PostgresOptions {
  connectionString: string;
  /** Tables live in this schema (created if missing); default `public`. */
  schema?: string;
  /** Every transaction is read-only; writes are refused with `read_only`. */
  readOnly?: boolean;
  maxConnections?: number | undefined;
  connectTimeoutMs?: number;
  /** Shown in pg_stat_activity (default `pacer`). */
  applicationName?: string | undefined;
}

const NOTIFY = 'SELECT pg_notify($1, $2)';
const UNIQUE_VIOLATION = '23505';
const IDENTIFIER = /^[a-z_][a-z0-9_]{0,62}$/;

function toPg(value: SqlParam): unknown {
  if (typeof value === 'string') return storableText(value);
  if (value instanceof Uint8Array && !Buffer.isBuffer(value)) return Buffer.from(value.buffer, value.byteOffset, value.byteLength);
  return value;
}

/** A pool; each transaction holds one client, plain statements take any. */
export class PostgresExecutor implements SqlExecutor {
  readonly caps = POSTGRES;
  private readonly pool: pg.Pool;
  readonly schema: string;
  /** The NOTIFY channel of this schema's queued work. */
  readonly channel: string;
  private readonly listen: { connectionString: string; applicationName: string; connectTimeoutMs: number };
  private readonly watches = new Set<QueuedWatch>();

  constructor(options: PostgresOptions) {
    this.schema = options.schema ?? 'public';
    if (!IDENTIFIER.test(this.schema)) {
      throw new StoreError('unknown', 'open', `schema name must match ${IDENTIFIER.source}, got ${JSON.stringify(this.schema)}`);
    }
    this.channel = workChannel(this.schema);
    this.listen = {
      connectionString: options.connectionString,
      applicationName: `${options.applicationName ?? 'pacer'} listen`,
      connectTimeoutMs: options.connectTimeoutMs ?? 10_000,
    };
    const settings = [`-c search_path=${this.schema}`];
    if (options.readOnly) settings.push('-c default_transaction_read_only=on');
    this.pool = new pg.Pool({
      connectionString: options.connectionString,
      max: options.maxConnections ?? 10,
      connectionTimeoutMillis: options.connectTimeoutMs ?? 10_000,
      options: settings.join(' '),
      application_name: options.applicationName ?? 'pacer',
    });
    // An idle client losing its server emits here; the next query reports the fault as a StoreError.
    this.pool.on('error', () => undefined);
  }

  async query(sql: string, params: readonly SqlParam[] = []): Promise<SqlRow[]> {
    const result = await this.pool.query<SqlRow>(sql, params.map(toPg));
    return result.rows;
  }

  async execute(sql: string, params: readonly SqlParam[] = []): Promise<number> {
    const result = await this.pool.query(sql, params.map(toPg));
    return result.rowCount ?? 0;
  }

  async notifyQueued(at: number): Promise<void> {
    await this.pool.query(NOTIFY, [this.channel, String(at)]);
  }

  async transaction<T>(_operation: string, work: (tx: SqlRunner) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    let open = true;
    const check = (): void => {
      if (!open) throw new Error('transaction runner used after its transaction ended');
    };
    // One statement at a time on the transaction's client, in the order asked: callers may start
    // several at once (Promise.all), which pg only queues with a deprecation warning.
    let chain: Promise<unknown> = Promise.resolve();
    const inTurn = <R>(run: () => Promise<R>): Promise<R> => {
      const next = chain.then(() => {
        check();
        return run();
      });
      chain = next.catch(() => undefined);
      return next;
    };
    const tx: SqlRunner = {
      caps: this.caps,
      query: (sql, params = []) => inTurn(async () => (await client.query<SqlRow>(sql, params.map(toPg))).rows),
      execute: (sql, params = []) => inTurn(async () => (await client.query(sql, params.map(toPg))).rowCount ?? 0),
      notifyQueued: (at) =>
        inTurn(async () => {
          await client.query(NOTIFY, [this.channel, String(at)]);
        }),
      copyRows: (table, columns, rows) => inTurn(() => copyInto(client, table, columns, rows)),
    };
    let broken = false;
    // A checked-out client has no error listener of the pool's: a connection ended by the server
    // between two statements (pg_terminate_backend, a restart) would crash the process. Mark it
    // broken instead; the next statement fails, the transaction reports a StoreError.
    const onError = (): void => {
      broken = true;
    };
    client.on('error', onError);
    try {
      await client.query('BEGIN');
      const result = await work(tx);
      // After every statement the work started, even one it did not wait for.
      await inTurn(() => client.query('COMMIT'));
      return result;
    } catch (error) {
      try {
        await chain;
        await client.query('ROLLBACK');
      } catch {
        broken = true; // the connection is gone; do not return it to the pool
      }
      throw error;
    } finally {
      open = false;
      client.removeListener('error', onError);
      client.release(broken);
    }
  }

  async lockForMigration(tx: SqlRunner): Promise<void> {
    // Transaction-scoped: released by COMMIT or ROLLBACK, even if this process dies.
    await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`pacer:migrate:${this.schema}`]);
    await tx.query(`CREATE SCHEMA IF NOT EXISTS ${this.schema}`); // validated identifier, not a value
  }

  /** Parameterless statements go through the simple protocol, which accepts several at once. */
  async script(tx: SqlRunner, sql: string): Promise<void> {
    await tx.query(sql);
  }

  toStoreError(error: unknown, operation: string): StoreError {
    return postgresStoreError(error, operation);
  }

  watchQueued(onQueued: (at: number | null) => void): QueuedWatch {
    const watch = listenForWork({ ...this.listen, channel: this.channel, onQueued });
    this.watches.add(watch);
    return {
      ...watch,
      close: () => {
        this.watches.delete(watch);
        return watch.close();
      },
    };
  }

  /** Nothing to change: PostgreSQL's checkpoints run in the server, whatever the client writes. */
  bulkWrites<T>(work: () => Promise<T>): Promise<T> {
    return work();
  }

  async close(): Promise<void> {
    await Promise.all([...this.watches].map((w) => w.close()));
    this.watches.clear();
    await this.pool.end();
  }
}

/** Table and column names come from the code, never from values; checked anyway, as they enter SQL text. */
function identifiers(names: readonly string[]): string {
  for (const name of names) if (!IDENTIFIER.test(name)) throw new TypeError(`not an SQL identifier: ${JSON.stringify(name)}`);
  return names.join(', ');
}

async function copyInto(
  client: pg.PoolClient,
  table: string,
  columns: readonly string[],
  rows: ReadonlyArray<readonly SqlParam[]>,
): Promise<boolean> {
  const sql = `COPY ${identifiers([table])} (${identifiers(columns)}) FROM STDIN`;
  const text = copyLines(rows); // before the savepoint: nothing to undo if a value cannot be written
  await client.query('SAVEPOINT pacer_copy');
  let written = true;
  try {
    await pipeline(Readable.from([text]), client.query(copyFrom(sql)));
  } catch (error) {
    if ((error as { code?: unknown }).code !== UNIQUE_VIOLATION) throw error;
    await client.query('ROLLBACK TO SAVEPOINT pacer_copy');
    written = false;
  }
  await client.query('RELEASE SAVEPOINT pacer_copy');
  return written;
}
