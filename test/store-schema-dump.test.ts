import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { dumpPostgresSchema, dumpSqliteSchema } from '../src/adapters/storage/schema-dump.js';
import { PG_URL } from './store-backends.js';

const committed = (name: string): string => readFileSync(path.join(import.meta.dirname, '..', 'db', name), 'utf8');
const HINT = 'the committed schema dump drifted from the migrations; run `npx tsx scripts/dump-schema.ts` and commit db/';

describe('committed schema dump', () => {
  it('matches what the migrations produce on SQLite', async () => {
    expect(await dumpSqliteSchema(), HINT).toBe(committed('schema.sqlite.sql'));
  });

  it('matches what the migrations produce on PostgreSQL', async () => {
    expect(await dumpPostgresSchema(PG_URL), HINT).toBe(committed('schema.postgres.sql'));
  });

  it('lists the same tables on both backends', async () => {
    const tables = (dump: string) => [...dump.matchAll(/CREATE TABLE (?:IF NOT EXISTS )?(\w+)/g)].map((m) => m[1]).sort();
    const sqlite = tables(committed('schema.sqlite.sql'));
    expect(sqlite).toContain('webhook_inbox');
    expect(tables(committed('schema.postgres.sql'))).toEqual(sqlite);
  });
});
