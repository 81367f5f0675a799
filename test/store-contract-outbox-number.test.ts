import { describe, expect, it } from 'vitest';
import { migrate } from '../src/adapters/storage/migrate.js';
import { MIGRATIONS } from '../src/adapters/storage/migrations.js';
import { createCampaign } from '../src/app/create-campaign.js';
import { startCampaign } from '../src/app/start-campaign.js';
import { NO_DISPATCHER_HERE } from '../src/app/work-signal.js';
import type { ParameterMapping } from '../src/core/template-parameters.js';
import { MINUTE } from '../src/core/time.js';
import type { Store } from '../src/ports/store.js';
import { addCouponTemplate, COUPON_MAPPING, importPeople, PEOPLE } from './preview-seed.js';
import { BACKENDS, executorAt } from './store-backends.js';

// A worker of one number claims only that number's rows, by the row's own phone_number_id column
// (migration 25). Every way a row is written must fill it, and rows written before it get it.
const T0 = Date.UTC(2026, 5, 1, 9);
const LEASE = 5 * MINUTE;

async function claimAll(store: Store, phoneNumberId: string): Promise<number[]> {
  const rows = await store.claimDue({ owner: phoneNumberId, now: T0 + MINUTE, leaseMs: LEASE, limit: 100, phoneNumberId });
  for (const r of rows) expect(r.intent['phoneNumberId']).toBe(phoneNumberId);
  return rows.map((r) => r.contactId).sort((a, b) => a - b);
}

describe.each(BACKENDS)('Store contract: outbox rows by number ($name)', (backend) => {
  it('fills the number on every way a campaign or a one-off writes its rows', async () => {
    const store = await backend.open();
    await addCouponTemplate(store, T0);
    // Ada's and Bob's values are plain, written by the database; the others' are not (missing, not
    // text, too long), so their rows come from the freezer (SQLite's row function, PostgreSQL's array).
    const ids = await importPeople(store, T0);
    const audience = ids.filter((_, i) => PEOPLE[i]?.marketing === true).sort((a, b) => a - b);
    const campaign = async (name: string, phoneNumberId: string, parameters: ParameterMapping) => {
      const created = await createCampaign(
        store,
        { name, template: { name: 'coupon_drop', language: 'en_US' }, sender: { phoneNumberId }, segment: {}, parameters },
        T0,
      );
      if (!created.ok) throw new Error(JSON.stringify(created));
      const started = await startCampaign(store, created.campaign.id, { phoneNumberId }, T0, NO_DISPATCHER_HERE);
      expect(started.inserted).toBe(audience.length);
    };
    await campaign('personal', 'pn-a', COUPON_MAPPING);
    await campaign('shared', 'pn-b', { 'body.1': { value: 'friend' }, 'body.2': { value: 'X1' }, 'button.0': { value: 'X1' } });
    const oneOff = { campaignId: null, senderId: null, category: 'utility', idempotencyKey: null, nextAttemptAt: T0 } as const;
    const [first = -1, second = -1] = ids;
    await store.insertOutbox(
      [
        { ...oneOff, contactId: first, intent: { phoneNumberId: 'pn-c', text: 'hi' } },
        { ...oneOff, contactId: second, intent: { phoneNumberId: 'pn-c', text: 'hello' } },
      ],
      T0,
    );

    expect(await claimAll(store, 'pn-a')).toEqual(audience);
    expect(await claimAll(store, 'pn-b')).toEqual(audience);
    expect(await claimAll(store, 'pn-c')).toEqual([first, second].sort((a, b) => a - b));
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
