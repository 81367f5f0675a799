import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SqliteExecutor } from './sqlite-executor.js';

let dir = '';
afterEach(() => rmSync(dir, { recursive: true, force: true }));

async function waitFor(check: () => boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return true;
}

describe('background checkpoints', () => {
  it('copy committed pages into the database file without a checkpoint on the writing thread', async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'pacer-ckpt-'));
    const file = path.join(dir, 'x.sqlite');
    const db = SqliteExecutor.open({ file, backgroundCheckpoint: true });
    try {
      expect(await db.query('PRAGMA wal_autocheckpoint')).toEqual([{ wal_autocheckpoint: 0 }]);
      await db.execute('CREATE TABLE t (id INTEGER PRIMARY KEY, body BLOB)');
      const chunk = Buffer.alloc(64 * 1024, 7);
      for (let i = 0; i < 32; i++) await db.execute('INSERT INTO t (body) VALUES ($1)', [chunk]);
      // 2 MB in the WAL; with automatic checkpoints off only the other thread can move it.
      expect(await waitFor(() => statSync(file).size >= 2 * 1024 * 1024, 10_000)).toBe(true);
      expect(await db.query('SELECT COUNT(*) AS n FROM t')).toEqual([{ n: 32 }]);
    } finally {
      await db.close();
    }
    const reopened = SqliteExecutor.open({ file });
    expect(await reopened.query('SELECT COUNT(*) AS n FROM t')).toEqual([{ n: 32 }]);
    await reopened.close();
  });

  it('leaves checkpoints to SQLite when not asked for', async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'pacer-ckpt-'));
    const db = SqliteExecutor.open({ file: path.join(dir, 'x.sqlite') });
    expect(await db.query('PRAGMA wal_autocheckpoint')).toEqual([{ wal_autocheckpoint: 8000 }]);
    await db.close();
  });
});
