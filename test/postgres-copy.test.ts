import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createSqlStore } from '../src/adapters/storage/sql-store.js';
import type { SqlExecutor, SqlParam, SqlRunner } from '../src/adapters/storage/sql-executor.js';
import { toJson } from '../src/adapters/storage/sql/values.js';
import { writeContactBatch } from '../src/app/write-contact-batch.js';
import type { ContactWrite } from '../src/app/import-contact-records.js';
import { EMPTY_CONTACT_STATE } from '../src/core/contact-state.js';
import { DEFAULT_POLICY } from '../src/core/policy.js';
import { StoreError } from '../src/ports/store.js';
import { BACKENDS, executorAt } from './store-backends.js';

// PostgreSQL writes many new rows (an import's contacts, consent and states) by COPY. A COPY must
// store exactly what the INSERT it replaces stores, and where a unique key refuses a row, write
// nothing and leave the INSERT to do what it always did.

const postgres = BACKENDS.find((b) => b.name === 'postgres')!;
const T0 = Date.UTC(2026, 0, 5, 9, 0, 0);
const SOURCE = 'import:contacts.csv';

interface CopyCall {
  table: string;
  rows: number;
  /** null: the COPY failed. */
  written: boolean | null;
}

/** A migrated store over an executor whose transactions report every COPY they make. */
async function watchedStore(): Promise<{ executor: SqlExecutor; store: ReturnType<typeof createSqlStore>; copies: CopyCall[] }> {
  const place = postgres.place();
  const executor = executorAt(place);
  const copies: CopyCall[] = [];
  const transaction = executor.transaction.bind(executor);
  executor.transaction = (operation, work) =>
    transaction(operation, (tx) => {
      const copyRows = tx.copyRows;
      if (copyRows === undefined) throw new Error('a PostgreSQL transaction without copyRows');
      const watched: SqlRunner = {
        ...tx,
        copyRows: async (table, columns, rows) => {
          const call: CopyCall = { table, rows: rows.length, written: null };
          copies.push(call);
          call.written = await copyRows(table, columns, rows);
          return call.written;
        },
      };
      return work(watched);
    });
  const store = createSqlStore(executor);
  await store.migrate();
  return { executor, store, copies };
}

function contacts(from: number, count: number, consent: ContactWrite['consent']): ContactWrite[] {
  return Array.from({ length: count }, (_, k) => ({
    phoneE164: `+4479112${String(from + k).padStart(5, '0')}`,
    name: `Person ${from + k}`,
    consent,
    tags: ['all'],
    attributes: { n: from + k },
  }));
}

const TABLE = `CREATE TABLE copied (n INTEGER NOT NULL, t TEXT, i BIGINT, b BOOLEAN, x BYTEA, j JSONB, d DOUBLE PRECISION);
CREATE TABLE inserted (LIKE copied);
CREATE TABLE keyed (k TEXT PRIMARY KEY)`;
// The row's number last, so that a line starts with any value, an awkward text included.
const COLUMNS = ['t', 'i', 'b', 'x', 'j', 'd', 'n'];

/** Text with what COPY's text format must escape, NULs (stored as U+FFFD) and characters beyond ASCII. */
const awkwardText = fc.string({
  unit: fc.oneof(
    fc.constantFrom('\\', '\t', '\n', '\r', '\0', '\\N', '\\.', 'é', '😀', '\u2028'),
    fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
  ),
  maxLength: 12,
});
const row = fc.tuple(
  fc.option(awkwardText),
  fc.option(fc.maxSafeInteger()),
  fc.option(fc.boolean()),
  fc.option(fc.uint8Array({ maxLength: 8 })),
  fc.option(fc.dictionary(awkwardText, awkwardText, { maxKeys: 3 }).map((o) => toJson(o))),
  fc.option(fc.double()),
);

describe('COPY on PostgreSQL', () => {
  it('stores every value exactly as the same value bound to an INSERT is stored', async () => {
    const place = postgres.place();
    await place.raw(`CREATE SCHEMA IF NOT EXISTS ${place.options.schema}; SET search_path TO ${place.options.schema}; ${TABLE}`);
    const executor = executorAt(place);
    try {
      await fc.assert(
        fc.asyncProperty(fc.array(row, { minLength: 1, maxLength: 20 }), async (rows) => {
          const params: SqlParam[][] = rows.map((r, n) => [...r, n]);
          const read = async (table: string): Promise<unknown[]> => executor.query(`SELECT t, i, b, x, j, d FROM ${table} ORDER BY n`);
          await executor.transaction('copy', async (tx) => {
            await tx.execute('DELETE FROM copied');
            await tx.execute('DELETE FROM inserted');
            expect(await tx.copyRows!('copied', COLUMNS, params)).toBe(true);
            for (const p of params) await tx.execute(`INSERT INTO inserted (${COLUMNS.join(', ')}) VALUES ($1, $2, $3, $4, $5, $6, $7)`, p);
          });
          expect(await read('copied')).toEqual(await read('inserted'));
        }),
        { numRuns: 60 },
      );
    } finally {
      await executor.close();
    }
  });

  it('writes nothing when a unique key refuses a row, and the transaction goes on', async () => {
    const place = postgres.place();
    await place.raw(`CREATE SCHEMA IF NOT EXISTS ${place.options.schema}; SET search_path TO ${place.options.schema}; ${TABLE}`);
    const executor = executorAt(place);
    try {
      await executor.execute("INSERT INTO keyed VALUES ('taken')");
      const outcome = await executor.transaction('copy', async (tx) => {
        const refused = await tx.copyRows!('keyed', ['k'], [['a'], ['b'], ['taken'], ['c']]);
        const accepted = await tx.copyRows!('keyed', ['k'], [['d'], ['e']]);
        await tx.execute("INSERT INTO keyed VALUES ('f')");
        return { refused, accepted };
      });
      expect(outcome).toEqual({ refused: false, accepted: true });
      expect((await executor.query('SELECT k FROM keyed ORDER BY k')).map((r) => r['k'])).toEqual(['d', 'e', 'f', 'taken']);
      // The refused COPY's savepoint is released, not left open under the rest of the transaction.
      await expect(
        executor.transaction('copy', async (tx) => {
          expect(await tx.copyRows!('keyed', ['k'], [['taken']])).toBe(false);
          await tx.execute('RELEASE SAVEPOINT pacer_copy');
        }),
      ).rejects.toThrow(/savepoint "pacer_copy" does not exist/);
    } finally {
      await executor.close();
    }
  });

  it('fails like a statement on any other refusal, and refuses names that are not identifiers', async () => {
    const { store, executor, copies } = await watchedStore();
    try {
      // No such contacts: the foreign key refuses the COPY as it refuses the INSERT.
      const saves = Array.from({ length: 100 }, (_, k) => ({
        contactId: 90_000 + k,
        state: EMPTY_CONTACT_STATE,
        expectedVersion: 0,
        version: 1,
      }));
      const refusal = await store.saveContactStates(saves, T0).catch((e: unknown) => e);
      expect(refusal).toBeInstanceOf(StoreError);
      expect((refusal as StoreError).code).toBe('constraint');
      expect(copies).toEqual([{ table: 'contact_states', rows: 100, written: null }]);
      await expect(executor.transaction('copy', (tx) => tx.copyRows!('contacts; DROP TABLE contacts', ['id'], [[1]]))).rejects.toThrow(
        /not an SQL identifier/,
      );
    } finally {
      await store.close();
    }
  });

  it('reports every state it wrote by COPY as landed, and one another writer saved first as lost', async () => {
    const { store, copies } = await watchedStore();
    try {
      const ids = (
        await store.upsertContacts(
          contacts(0, 80, {}).map((c) => ({ phoneE164: c.phoneE164, waId: c.phoneE164!.slice(1) })),
          T0,
        )
      ).ids;
      const saves = ids.map((contactId) => ({ contactId, state: EMPTY_CONTACT_STATE, expectedVersion: 0, version: 1 }));
      copies.length = 0;
      expect([...(await store.saveContactStates(saves.slice(0, 70), T0))].sort()).toEqual(ids.slice(0, 70).sort());
      expect(copies).toEqual([{ table: 'contact_states', rows: 70, written: true }]);
      // One of the next 70 was saved meanwhile: the COPY is refused, the INSERT lands the other 69.
      await store.saveContactState(ids[75]!, EMPTY_CONTACT_STATE, 0, T0);
      const landed = await store.saveContactStates(saves.slice(10), T0);
      expect(copies[1]).toEqual({ table: 'contact_states', rows: 70, written: false });
      expect([...landed].sort()).toEqual(
        ids
          .slice(70)
          .filter((id) => id !== ids[75])
          .sort(),
      );
    } finally {
      await store.close();
    }
  });

  it("writes a new contacts' import by COPY, and a re-import's changed consent by the upsert", async () => {
    const { store, copies } = await watchedStore();
    try {
      const first = await writeContactBatch(store, contacts(0, 200, { marketing: true, utility: false }), SOURCE, DEFAULT_POLICY, T0);
      expect(first.every((w) => w.ok && w.outcome === 'created')).toBe(true);
      expect(copies.filter((c) => c.written).map((c) => c.table)).toEqual(
        expect.arrayContaining(['contacts', 'consent_events', 'consent_current', 'contact_states']),
      );
      expect(copies.every((c) => c.written)).toBe(true);
      const ids = first.map((w) => (w.ok ? w.id : -1));
      expect(new Set(ids).size).toBe(200);
      const one = await store.findContact({ phoneE164: '+447911200007' });
      expect(one?.id).toBe(ids[7]);
      expect(one?.attributes).toEqual({ n: 7 });

      copies.length = 0;
      // 200 known contacts change their consent, 100 new ones come with theirs.
      const again = await writeContactBatch(
        store,
        [...contacts(0, 200, { marketing: false }), ...contacts(200, 100, { marketing: false })],
        SOURCE,
        DEFAULT_POLICY,
        T0 + 1_000,
      );
      expect(again.map((w) => w.ok && w.outcome)).toEqual([...Array(200).fill('updated'), ...Array(100).fill('created')]);
      // Only the new contacts' current consent goes by COPY; the known ones' is replaced by the upsert, no COPY refused.
      expect(copies).toContainEqual({ table: 'consent_current', rows: 100, written: true });
      expect(copies.every((c) => c.written)).toBe(true);
      const fresh = await store.findContact({ phoneE164: '+447911200250' });
      expect((await store.getConsent(fresh!.id)).marketing?.status).toBe('revoked');
      const consent = await store.getConsent(ids[7]!);
      expect(consent.marketing?.status).toBe('revoked');
      expect(consent.utility?.status).toBe('revoked');
      expect((await store.consentHistory(ids[7]!)).map((c) => [c.category, c.status])).toEqual([
        ['marketing', 'granted'],
        ['utility', 'revoked'],
        ['marketing', 'revoked'],
      ]);
      expect((await store.loadContactState(ids[7]!))?.state.consent.marketing.status).toBe('revoked');
    } finally {
      await store.close();
    }
  });

  it('a contact another writer creates between the look-up and the COPY: the batch is written again row by row, and nothing is lost', async () => {
    const { store, executor, copies } = await watchedStore();
    try {
      const records = contacts(0, 100, { marketing: true });
      const query = executor.transaction.bind(executor);
      let raced = false;
      executor.transaction = (operation, work) =>
        query(operation, (tx) =>
          work({
            ...tx,
            query: async (sql, params) => {
              const rows = await tx.query(sql, params);
              if (!raced && sql.startsWith('SELECT * FROM contacts WHERE')) {
                raced = true;
                // Another connection creates one of the batch's contacts and commits first.
                await executor.execute(
                  "INSERT INTO contacts (wa_id, phone_e164, name, attributes, tags, created_at, updated_at) VALUES ('447911200042', '+447911200042', 'Earlier', '{}', '[]', 1, 1)",
                );
              }
              return rows;
            },
          }),
        );
      const writes = await writeContactBatch(store, records, SOURCE, DEFAULT_POLICY, T0);
      expect(raced).toBe(true);
      expect(copies[0]).toEqual({ table: 'contacts', rows: 100, written: false });
      expect(writes.every((w) => w.ok)).toBe(true);
      expect(writes.filter((w) => w.ok && w.outcome === 'created')).toHaveLength(99);
      const earlier = await store.findContact({ phoneE164: '+447911200042' });
      expect(earlier?.name).toBe('Person 42');
      expect((await store.getConsent(earlier!.id)).marketing?.status).toBe('granted');
      expect((await executor.query('SELECT count(*)::int AS n FROM contacts'))[0]!['n']).toBe(100);
    } finally {
      await store.close();
    }
  });
});
