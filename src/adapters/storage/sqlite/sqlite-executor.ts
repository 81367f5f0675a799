import path from 'node:path';
import Database from 'better-sqlite3';
import type { StoreError } from '../../../ports/store.js';
import { SQLITE } from '../capabilities.js';
import type { SqlExecutor, SqlParam, SqlRow, SqlRunner } from '../sql-executor.js';
import { storableText } from '../storable-text.js';
import { BackgroundCheckpointer } from './background-checkpointer.js';
import { acquireQueue, releaseQueue, SerialQueue } from './serial-queue.js';
import type { QueuedWatch } from '../../../ports/work-signal.js';
import { sqliteStoreError } from './sqlite-errors.js';

/**
 * How often a process looks for other processes' commits. Work queued elsewhere then waits up to this
 * long, plus one pass, so half a second keeps that under a second; each look is one PRAGMA read.
 */
export const DATA_VERSION_POLL_MS = 500;

/** WAL pages after which a commit on this thread copies the WAL back (when no background thread does). */
const AUTO_CHECKPOINT_PAGES = 8000;

export interface SqliteOptions {
  file: string;
  /** Opens an existing file for reading only; every write is refused with `read_only`. */
  readOnly?: boolean;
  /** How long a writer waits for another process's write transaction. */
  busyTimeoutMs?: number;
  /**
   * `normal` (default): with WAL a commit survives a crash of the process or the machine's OS
   * restarting cleanly, at no fsync per commit. `full`: it also survives power loss; every commit
   * waits for the disk, so the webhook inbox relies on group commit to stay fast.
   */
  synchronous?: 'normal' | 'full';
  /** Checkpoint the WAL from another thread instead of inside an unlucky commit (long-running engines). */
  backgroundCheckpoint?: boolean;
}

interface Prepared {
  statement: Database.Statement;
  /** Index into the caller's params for each `?`, from the `$n` placeholders. */
  order: number[];
}

type SqliteValue = string | number | null | Buffer;

function toSqlite(value: SqlParam | undefined): SqliteValue {
  if (value === undefined) return null;
  if (typeof value === 'string') return storableText(value);
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (value instanceof Uint8Array) return Buffer.isBuffer(value) ? value : Buffer.from(value.buffer, value.byteOffset, value.byteLength);
  return value;
}

/**
 * better-sqlite3 is synchronous; this wraps it behind the async runner. While a transaction awaits,
 * other calls on the same file in this process queue behind it, so nothing runs inside someone
 * else's transaction; other processes are kept out by SQLite's own locks.
 */
export class SqliteExecutor implements SqlExecutor {
  readonly caps = SQLITE;
  private readonly prepared = new Map<string, Prepared>();
  private closed = false;
  private readonly watches = new Set<QueuedWatch>();

  private constructor(
    private readonly db: Database.Database,
    private readonly file: string,
    private readonly queue: SerialQueue,
    private readonly checkpointer: BackgroundCheckpointer | null,
  ) {}

  static open(options: SqliteOptions): SqliteExecutor {
    try {
      const readonly = options.readOnly ?? false;
      const db = new Database(options.file, { readonly, fileMustExist: readonly });
      db.pragma(`busy_timeout = ${Math.trunc(options.busyTimeoutMs ?? 5000)}`);
      if (!readonly) db.pragma('journal_mode = WAL');
      db.pragma(`synchronous = ${options.synchronous === 'full' ? 'FULL' : 'NORMAL'}`);
      // Checkpoint less often (each one syncs the disk), or never on this thread; keep the hot pages in memory.
      const background = options.backgroundCheckpoint === true && !readonly;
      db.pragma(`wal_autocheckpoint = ${background ? 0 : AUTO_CHECKPOINT_PAGES}`);
      db.pragma('cache_size = -65536');
      db.pragma('foreign_keys = ON');
      // SQLite's lower() folds ASCII only; segments compare attributes as JavaScript does (caps.lowerText).
      db.function('unicode_lower', { deterministic: true }, (value: unknown) => (typeof value === 'string' ? value.toLowerCase() : value));
      const file = path.resolve(options.file);
      const executor = new SqliteExecutor(db, file, acquireQueue(file), background ? BackgroundCheckpointer.start(file) : null);
      db.function('pacer_row_intent', { deterministic: false }, (name: unknown, attributes: unknown) =>
        executor.rowIntent(name, attributes),
      );
      return executor;
    } catch (error) {
      throw sqliteStoreError(error, 'open');
    }
  }

  query(sql: string, params: readonly SqlParam[] = []): Promise<SqlRow[]> {
    return this.queue.run(() => this.all(sql, params));
  }

  execute(sql: string, params: readonly SqlParam[] = []): Promise<number> {
    return this.queue.run(() => this.run(sql, params));
  }

  notifyQueued(): Promise<void> {
    return Promise.resolve(); // other processes see the commit by their data-version poll
  }

  async transaction<T>(_operation: string, work: (tx: SqlRunner) => Promise<T>): Promise<T> {
    return this.queue.run(async () => {
      let open = true;
      const guard = <R>(fn: () => R): Promise<R> => {
        if (!open) return Promise.reject(new Error('transaction runner used after its transaction ended'));
        try {
          return Promise.resolve(fn());
        } catch (error) {
          return Promise.reject(error as Error);
        }
      };
      const tx: SqlRunner = {
        caps: this.caps,
        query: (sql, params = []) => guard(() => this.all(sql, params)),
        execute: (sql, params = []) => guard(() => this.run(sql, params)),
        notifyQueued: () => Promise.resolve(),
        withRowIntent: async (fn, work) => {
          this.rowIntentFn = fn;
          try {
            return await work();
          } finally {
            this.rowIntentFn = null;
          }
        },
      };
      // IMMEDIATE takes the write lock up front, so two processes never both read then both write.
      this.db.exec('BEGIN IMMEDIATE');
      try {
        const result = await work(tx);
        this.db.exec('COMMIT');
        return result;
      } catch (error) {
        if (this.db.inTransaction) this.db.exec('ROLLBACK');
        throw error;
      } finally {
        open = false;
      }
    });
  }

  private rowIntentFn: ((name: string | null, attributesJson: string) => string) | null = null;

  /** `pacer_row_intent(name, attributes)`: only inside `withRowIntent`, where the transaction is this connection's alone. */
  rowIntent(name: unknown, attributes: unknown): string {
    if (this.rowIntentFn === null) throw new Error('pacer_row_intent() used outside withRowIntent');
    return this.rowIntentFn(typeof name === 'string' ? name : null, String(attributes));
  }

  private bulkRuns = 0;

  /**
   * A long run of commits (a campaign start writes a million rows a page at a time): the WAL is
   * copied back once at the end, not by every commit that crosses the threshold, each copy with
   * two fsyncs and most of the same pages again. Commits are as durable as ever (WAL,
   * synchronous as configured); only the copy waits. With a background checkpointer nothing changes.
   */
  async bulkWrites<T>(work: () => Promise<T>): Promise<T> {
    if (this.checkpointer !== null || this.db.readonly) return work();
    if (this.bulkRuns++ === 0) await this.queue.run(() => this.db.pragma('wal_autocheckpoint = 0'));
    try {
      return await work();
    } finally {
      if (--this.bulkRuns === 0)
        await this.queue.run(() => {
          this.db.pragma(`wal_autocheckpoint = ${AUTO_CHECKPOINT_PAGES}`);
          this.db.pragma('wal_checkpoint(PASSIVE)');
        });
    }
  }

  lockForMigration(_tx: SqlRunner): Promise<void> {
    return Promise.resolve(); // BEGIN IMMEDIATE holds the only write lock
  }

  script(tx: SqlRunner, sql: string): Promise<void> {
    void tx; // the script runs on the one connection, inside the caller's open transaction
    this.db.exec(sql);
    return Promise.resolve();
  }

  toStoreError(error: unknown, operation: string): StoreError {
    return sqliteStoreError(error, operation);
  }

  /**
   * SQLite cannot notify another process. PRAGMA data_version moves when another connection commits
   * (this one's own commits leave it alone: they are told in-process): one cheap read a second.
   */
  watchQueued(onQueued: (at: number | null) => void, everyMs = DATA_VERSION_POLL_MS): QueuedWatch {
    let seen: unknown = null;
    const look = (): void => {
      if (this.closed) return;
      void this.queue
        .run(() => this.db.pragma('data_version', { simple: true }))
        .then((version) => {
          if (seen !== null && version !== seen) onQueued(null);
          seen = version;
        })
        .catch(() => undefined); // a closed or busy database: the next look tries again
    };
    look();
    const timer = setInterval(look, everyMs);
    timer.unref?.();
    const watch: QueuedWatch = {
      by: 'poll',
      everyMs,
      connected: () => !this.closed,
      close: () => {
        clearInterval(timer);
        this.watches.delete(watch);
        return Promise.resolve();
      },
    };
    this.watches.add(watch);
    return watch;
  }

  async close(): Promise<void> {
    for (const watch of [...this.watches]) await watch.close();
    await this.queue.drain();
    if (this.closed) return;
    this.closed = true;
    await this.checkpointer?.stop();
    releaseQueue(this.file);
    this.db.close();
  }

  private prepare(sql: string): Prepared {
    let found = this.prepared.get(sql);
    if (!found) {
      const order: number[] = [];
      const text = sql.replace(/\$(\d+)/g, (_match, n: string) => {
        order.push(Number(n) - 1);
        return '?';
      });
      found = { statement: this.db.prepare(text), order };
      this.prepared.set(sql, found);
    }
    return found;
  }

  private bind(prepared: Prepared, params: readonly SqlParam[]): SqliteValue[] {
    return prepared.order.map((index) => toSqlite(params[index]));
  }

  private all(sql: string, params: readonly SqlParam[]): SqlRow[] {
    const prepared = this.prepare(sql);
    const values = this.bind(prepared, params);
    if (prepared.statement.reader) return prepared.statement.all(...values) as SqlRow[];
    prepared.statement.run(...values);
    return [];
  }

  private run(sql: string, params: readonly SqlParam[]): number {
    const prepared = this.prepare(sql);
    const values = this.bind(prepared, params);
    if (prepared.statement.reader) return prepared.statement.all(...values).length;
    return prepared.statement.run(...values).changes;
  }
}
