import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SqliteExecutor } from './sqlite-executor.js';

let dir = '';
let db: SqliteExecutor;
beforeEach(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'pacer-sqlite-'));
  db = SqliteExecutor.open({ file: path.join(dir, 'x.sqlite') });
  await db.execute('CREATE TABLE t (id INTEGER PRIMARY KEY, flag INTEGER, body BLOB, label TEXT)');
});
afterEach(async () => {
  await db.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('SqliteExecutor', () => {
  it('binds $n placeholders by number, repeated and out of order', async () => {
    expect(await db.query('SELECT $2 AS a, $1 AS b, $2 AS c', ['one', 'two'])).toEqual([{ a: 'two', b: 'one', c: 'two' }]);
  });

  it('stores booleans as 0/1 and bytes unchanged', async () => {
    const body = Uint8Array.from([0, 255, 1]);
    await db.execute('INSERT INTO t (flag, body) VALUES ($1, $2), ($3, $2)', [true, body, false]);
    const rows = await db.query('SELECT flag, body FROM t ORDER BY id');
    expect(rows.map((r) => r['flag'])).toEqual([1, 0]);
    expect(Buffer.compare(rows[0]?.['body'] as Buffer, Buffer.from(body))).toBe(0);
  });

  it('keeps a statement issued during an open transaction out of it', async () => {
    let release = (): void => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const failing = db.transaction('test', async (tx) => {
      await tx.execute(`INSERT INTO t (label) VALUES ('inside')`);
      await gate;
      throw new Error('abort');
    });
    const outside = db.execute(`INSERT INTO t (label) VALUES ('outside')`);
    release();
    await expect(failing).rejects.toThrow('abort');
    expect(await outside).toBe(1);
    expect(await db.query('SELECT label FROM t')).toEqual([{ label: 'outside' }]);
  });

  it('refuses a transaction runner used after its transaction ended', async () => {
    const leaked = await db.transaction('test', (tx) => Promise.resolve(tx));
    await expect(leaked.query('SELECT 1')).rejects.toThrow('transaction runner used after its transaction ended');
  });

  it('shares one queue between connections to the same file in one process', async () => {
    const second = SqliteExecutor.open({ file: path.join(dir, 'x.sqlite') });
    try {
      const both = await Promise.all([
        db.transaction('a', async (tx) => tx.execute(`INSERT INTO t (label) VALUES ('a')`)),
        second.transaction('b', async (tx) => tx.execute(`INSERT INTO t (label) VALUES ('b')`)),
      ]);
      expect(both).toEqual([1, 1]);
    } finally {
      await second.close();
    }
  });
});

describe('SqliteExecutor.bulkWrites', () => {
  const autoCheckpoint = async (on: SqliteExecutor): Promise<unknown> =>
    (await on.query('PRAGMA wal_autocheckpoint'))[0]?.['wal_autocheckpoint'];
  /** Frames in the WAL since it last started over (a writer starts it over once it was all copied back). */
  const walFrames = async (on: SqliteExecutor): Promise<number> => Number((await on.query('PRAGMA wal_checkpoint(PASSIVE)'))[0]?.['log']);

  it('copies the WAL back once at the end, not in the commits inside, and restores the threshold after', async () => {
    expect(await autoCheckpoint(db)).toBe(8000);
    const seen = await db.bulkWrites(async () => {
      const inside = await autoCheckpoint(db);
      // Nested runs (two starts at once) keep the threshold off until the last one ends.
      await db.bulkWrites(() => db.execute(`INSERT INTO t (label) VALUES ('nested')`));
      const afterNested = await autoCheckpoint(db);
      for (let i = 0; i < 20; i += 1) await db.transaction('page', (tx) => tx.execute(`INSERT INTO t (label) VALUES ('x')`));
      return { inside, afterNested };
    });
    expect(seen).toEqual({ inside: 0, afterNested: 0 });
    expect(await autoCheckpoint(db)).toBe(8000);
    // Copied back at the end: the next commit starts the WAL over, so it holds that commit alone.
    await db.execute(`INSERT INTO t (label) VALUES ('after')`);
    expect(await walFrames(db)).toBeLessThan(5);
    expect(await db.query('SELECT count(*) AS n FROM t')).toEqual([{ n: 22 }]);
  });

  it('restores the threshold when the work fails, and passes the failure on', async () => {
    await expect(db.bulkWrites(() => Promise.reject(new Error('page failed')))).rejects.toThrow('page failed');
    expect(await autoCheckpoint(db)).toBe(8000);
  });

  it('changes nothing where a background thread checkpoints, or on a read-only connection', async () => {
    const file = path.join(dir, 'bg.sqlite');
    const background = SqliteExecutor.open({ file, backgroundCheckpoint: true });
    const readOnly = SqliteExecutor.open({ file, readOnly: true });
    try {
      expect(await background.bulkWrites(() => autoCheckpoint(background))).toBe(0);
      expect(await autoCheckpoint(background)).toBe(0);
      expect(await readOnly.bulkWrites(() => autoCheckpoint(readOnly))).toBe(8000);
      expect(await autoCheckpoint(readOnly)).toBe(8000);
    } finally {
      await readOnly.close();
      await background.close();
    }
  });
});
