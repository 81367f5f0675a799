import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { migrate } from '../src/adapters/storage/migrate.js';
import { MIGRATIONS } from '../src/adapters/storage/migrations.js';
import { SQLITE_FILE_NAME } from '../src/adapters/storage/open-store.js';
import { PostgresExecutor } from '../src/adapters/storage/postgres/postgres-executor.js';
import type { SqlExecutor } from '../src/adapters/storage/sql-executor.js';
import { SqliteExecutor } from '../src/adapters/storage/sqlite/sqlite-executor.js';
import { createCampaign } from '../src/app/create-campaign.js';
import { importContactRecords } from '../src/app/import-contact-records.js';
import { startCampaign } from '../src/app/start-campaign.js';
import { NO_DISPATCHER_HERE } from '../src/app/work-signal.js';
import { DEFAULT_POLICY } from '../src/core/policy.js';
import type { ParameterMapping } from '../src/core/template-parameters.js';
import { MINUTE } from '../src/core/time.js';
import type { JsonValue, Store } from '../src/ports/store.js';
import { BACKENDS, type Place } from './store-backends.js';

// A worker of one number claims only that number's rows, by the row's own phone_number_id column
// (migration 25). Every way a row is written must fill it, and rows written before it get it.
const T0 = Date.UTC(2026, 5, 1, 9);
const LEASE = 5 * MINUTE;
const COMPONENTS: JsonValue[] = [
  { type: 'BODY', text: 'Hi {{1}}, your {{2}} coupon is waiting.' },
  { type: 'BUTTONS', buttons: [{ type: 'URL', text: 'Shop', url: 'https://shop.example/c/{{1}}' }] },
];

function executorAt(place: Place): SqlExecutor {
  const { databaseUrl, schema, dataDir } = place.options;
  if (databaseUrl !== undefined) return new PostgresExecutor({ connectionString: databaseUrl, schema });
  return SqliteExecutor.open({ file: path.join(dataDir ?? '', SQLITE_FILE_NAME) });
}

async function claimAll(store: Store, phoneNumberId: string): Promise<number[]> {
  const rows = await store.claimDue({ owner: phoneNumberId, now: T0 + MINUTE, leaseMs: LEASE, limit: 100, phoneNumberId });
  for (const r of rows) expect(r.intent['phoneNumberId']).toBe(phoneNumberId);
  return rows.map((r) => r.contactId).sort((a, b) => a - b);
}

describe.each(BACKENDS)('Store contract: outbox rows by number ($name)', (backend) => {
  it('fills the number on every way a campaign or a one-off writes its rows', async () => {
    const store = await backend.open();
    await store.upsertSyncedTemplates(
      [
        {
          name: 'drop',
          language: 'en_US',
          category: 'marketing',
          status: 'approved',
          quality: 'GREEN',
          pausedUntil: null,
          metaId: '9100',
          subCategory: null,
          parameterFormat: 'positional',
          components: COMPONENTS,
        },
      ],
      T0,
    );
    // Plain values are written by the database; 'two words' needs URL-encoding and 'Zoë' is not
    // plain text, so those rows are rendered in the process (SQLite's row function, PostgreSQL's array).
    const people = [
      { first_name: 'Ada', coupon: 'SAVE-10' },
      { first_name: 'Zoë', coupon: 'two words' },
      { first_name: 'Bo', coupon: 'BO-5' },
      { first_name: 'Cy', coupon: 'C y' },
    ];
    const { ids } = await importContactRecords(
      store,
      people.map((attributes, i) => ({
        phoneE164: `+4477009000${i}`,
        name: null,
        tags: ['all'],
        attributes,
        consent: { marketing: true },
      })),
      'test',
      DEFAULT_POLICY,
      T0,
    );
    const campaign = async (name: string, phoneNumberId: string, parameters: ParameterMapping) => {
      const created = await createCampaign(
        store,
        { name, template: { name: 'drop', language: 'en_US' }, sender: { phoneNumberId }, segment: { tagsAll: ['all'] }, parameters },
        T0,
      );
      if (!created.ok) throw new Error(JSON.stringify(created));
      expect((await startCampaign(store, created.campaign.id, { phoneNumberId }, T0, NO_DISPATCHER_HERE)).inserted).toBe(people.length);
    };
    await campaign('personal', 'pn-a', {
      'body.1': { attribute: 'first_name' },
      'body.2': { attribute: 'coupon' },
      'button.0': { attribute: 'coupon' },
    });
    await campaign('shared', 'pn-b', { 'body.1': { value: 'friend' }, 'body.2': { value: 'X1' }, 'button.0': { value: 'X1' } });
    const [senderC] = await store.upsertSenders(
      [
        {
          phoneNumberId: 'pn-c',
          displayNumber: '+1 555-0103',
          qualityRating: 'GREEN',
          throughputMps: 80,
          messagingLimitTier: null,
          state: 'ok',
          stateReason: null,
          stateUntil: null,
        },
      ],
      T0,
    );
    const oneOff = { campaignId: null, senderId: senderC ?? -1, category: 'utility', idempotencyKey: null, nextAttemptAt: T0 } as const;
    await store.insertOutbox(
      [
        { ...oneOff, contactId: ids[0] ?? -1, intent: { phoneNumberId: 'pn-c', text: 'hi' } },
        { ...oneOff, contactId: ids[1] ?? -1, intent: { phoneNumberId: 'pn-c', text: 'hello' } },
      ],
      T0,
    );

    const all = [...ids].sort((a, b) => a - b);
    expect(await claimAll(store, 'pn-a')).toEqual(all);
    expect(await claimAll(store, 'pn-b')).toEqual(all);
    expect(await claimAll(store, 'pn-c')).toEqual(all.slice(0, 2).sort((a, b) => a - b));
    expect(await claimAll(store, 'pn-d')).toEqual([]);
  });

  it('migration 25 gives rows written before it their number from the intent', async () => {
    const place = backend.place();
    const before = executorAt(place);
    try {
      await migrate(before, MIGRATIONS.slice(0, 24), T0);
      await before.execute(
        "INSERT INTO contacts (wa_id, attributes, tags, created_at, updated_at) VALUES ('447700900001', '{}', '[]', $1, $1)",
        [T0],
      );
      const [contact] = await before.query('SELECT id FROM contacts');
      for (const number of ['pn-old', 'pn-old', 'pn-other'])
        await before.execute(
          `INSERT INTO outbox (contact_id, category, intent, status, next_attempt_at, created_at, updated_at)
           VALUES ($1, 'utility', $2, 'queued', $3, $3, $3)`,
          [Number(contact?.['id']), JSON.stringify({ phoneNumberId: number, text: 'hi' }), T0],
        );
    } finally {
      await before.close();
    }
    const store = place.open();
    expect((await store.migrate()).applied).toEqual(MIGRATIONS.slice(24).map((m) => m.version));
    expect(await store.nextWorkAt({ phoneNumberId: 'pn-old' })).toBe(T0);
    const old = await store.claimDue({ owner: 'w', now: T0, leaseMs: LEASE, limit: 10, phoneNumberId: 'pn-old' });
    expect(old.map((r) => r.intent['phoneNumberId'])).toEqual(['pn-old', 'pn-old']);
    const other = await store.claimDue({ owner: 'w', now: T0, leaseMs: LEASE, limit: 10, phoneNumberId: 'pn-other' });
    expect(other).toHaveLength(1);
  });
});
