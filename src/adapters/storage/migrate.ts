import { StoreError, type MigrateResult } from '../../ports/store.js';
import type { Migration } from './migrations.js';
import type { SqlExecutor } from './sql-executor.js';

/** The bookkeeping table, per dialect; created by the runner before any migration. */
const BOOKKEEPING = {
  sqlite: `CREATE TABLE IF NOT EXISTS schema_migrations (
  version INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  applied_at INTEGER NOT NULL
) STRICT`,
  postgres: `CREATE TABLE IF NOT EXISTS schema_migrations (
  version INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  applied_at BIGINT NOT NULL
)`,
} as const;

function checkOrder(migrations: readonly Migration[]): void {
  migrations.forEach((migration, index) => {
    if (migration.version !== index + 1) {
      throw new StoreError(
        'migration',
        'migrate',
        `migration #${index} "${migration.name}" has version ${migration.version}, expected ${index + 1}`,
      );
    }
  });
}

/**
 * Applies what is missing in one transaction, under a lock that makes every other process wait and
 * then find nothing left to do. A database newer than this code is refused rather than guessed at.
 */
export async function migrate(db: SqlExecutor, migrations: readonly Migration[], now: number): Promise<MigrateResult> {
  checkOrder(migrations);
  const dialect = db.caps.dialect;
  return db.transaction('migrate', async (tx) => {
    await db.lockForMigration(tx);
    await tx.execute(BOOKKEEPING[dialect]);
    const rows = await tx.query('SELECT version FROM schema_migrations ORDER BY version');
    const done = new Set(rows.map((row) => Number(row['version'])));
    const newest = Math.max(0, ...done);
    if (newest > migrations.length) {
      throw new StoreError('migration', 'migrate', `the database is at version ${newest}, newer than this release (${migrations.length})`);
    }
    const applied: number[] = [];
    for (const migration of migrations) {
      if (done.has(migration.version)) continue;
      await db.script(tx, migration[dialect]);
      await tx.execute('INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)', [
        migration.version,
        migration.name,
        now,
      ]);
      applied.push(migration.version);
    }
    return { applied, current: migrations.length };
  });
}
