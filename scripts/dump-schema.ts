// Writes db/schema.sqlite.sql and db/schema.postgres.sql from the migrations.
// PostgreSQL: DATABASE_URL, or the local test server. A scratch schema is created and dropped.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { dumpPostgresSchema, dumpSqliteSchema } from '../src/adapters/storage/schema-dump.js';

const SCHEMA_FILES = {
  sqlite: path.join(import.meta.dirname, '..', 'db', 'schema.sqlite.sql'),
  postgres: path.join(import.meta.dirname, '..', 'db', 'schema.postgres.sql'),
};

const url = process.env['DATABASE_URL'] || 'postgres://postgres@127.0.0.1:5432/test';
writeFileSync(SCHEMA_FILES.sqlite, await dumpSqliteSchema());
writeFileSync(SCHEMA_FILES.postgres, await dumpPostgresSchema(url));
process.stdout.write(`wrote ${SCHEMA_FILES.sqlite} and ${SCHEMA_FILES.postgres}\n`);
