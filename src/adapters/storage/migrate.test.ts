import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { migrate } from './migrate.js';
import { MIGRATIONS, type Migration } from './migrations.js';
import { SqliteExecutor } from './sqlite/sqlite-executor.js';

const opened: { db: SqliteExecutor; dir: string }[] = [];
function sqlite(): SqliteExecutor {
  const dir = mkdtempSync(path.join(tmpdir(), 'pacer-migrate-'));
  const db = SqliteExecutor.open({ file: path.join(dir, 'm.sqlite') });
  opened.push({ db, dir });
  return db;
}
afterEach(async () => {
  for (const { db, dir } of opened.splice(0)) {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

const NEXT = MIGRATIONS.length + 1;
const extra = (sql: string): Migration => ({ version: NEXT, name: 'extra', sqlite: sql, postgres: sql });

describe('migrate', () => {
  it('applies only what is new on an existing database and records when', async () => {
    const db = sqlite();
    expect(await migrate(db, MIGRATIONS, 1000)).toEqual({ applied: MIGRATIONS.map((m) => m.version), current: NEXT - 1 });
    const next = [...MIGRATIONS, extra('CREATE TABLE extra (x INTEGER) STRICT')];
    expect(await migrate(db, next, 2000)).toEqual({ applied: [NEXT], current: NEXT });
    expect(await db.query('SELECT version, name, applied_at FROM schema_migrations ORDER BY version')).toEqual([
      ...MIGRATIONS.map((m) => ({ version: m.version, name: m.name, applied_at: 1000 })),
      { version: NEXT, name: 'extra', applied_at: 2000 },
    ]);
  });

  it('rolls a failing migration back whole, recording nothing', async () => {
    const db = sqlite();
    await migrate(db, MIGRATIONS, 0);
    const broken = [...MIGRATIONS, extra('CREATE TABLE half (x INTEGER) STRICT; CREATE TABLE oops (;')];
    await expect(migrate(db, broken, 0)).rejects.toThrow(/syntax error/);
    expect(await db.query(`SELECT name FROM sqlite_master WHERE name = 'half'`)).toEqual([]);
    expect(await db.query('SELECT MAX(version) AS v FROM schema_migrations')).toEqual([{ v: NEXT - 1 }]);
  });

  it('refuses a list whose versions are not 1, 2, 3...', async () => {
    const gap = [...MIGRATIONS, { ...extra('SELECT 1'), version: NEXT + 1 }];
    await expect(migrate(sqlite(), gap, 0)).rejects.toThrow(`migration #${NEXT - 1} "extra" has version ${NEXT + 1}, expected ${NEXT}`);
  });

  it('keeps released migrations frozen: they import nothing from the application', () => {
    const dir = path.join(import.meta.dirname, 'migrations');
    for (const file of readdirSync(dir).filter((f) => /^\d{4}-.*\.ts$/.test(f))) {
      const imports = [...readFileSync(path.join(dir, file), 'utf8').matchAll(/from\s+'([^']+)'/g)].map((m) => m[1]);
      expect(imports, file).toEqual(['./migration.js']);
    }
    expect(MIGRATIONS.map((m) => m.version)).toEqual(MIGRATIONS.map((_, i) => i + 1));
  });
});
