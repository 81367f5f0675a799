import { describe, expect, expectTypeOf, it } from 'vitest';
import type { Store, TxStore } from '../src/ports/store.js';
import { BACKENDS } from './store-backends.js';

const T0 = Date.UTC(2026, 0, 5, 9, 0, 0);
/** What only the whole store has: its lifecycle, the watch that holds a connection of its own, and bulk mode around many transactions. */
const LIFECYCLE = ['backend', 'migrate', 'close', 'transaction', 'watchQueued', 'bulkWrites'] as const;
/** What only a transaction has. */
const IN_TRANSACTION = ['savepoint'] as const;

describe.each(BACKENDS)('Store contract: transactions ($name)', (backend) => {
  it('hands out every data role and nothing of the lifecycle: a transaction cannot migrate, close or nest', async () => {
    const store = await backend.open();
    const keys = await store.transaction((tx) => Promise.resolve(Object.keys(tx)));
    const data = Object.keys(store).filter((k) => !(LIFECYCLE as readonly string[]).includes(k));
    expect(keys.sort()).toEqual([...data, ...IN_TRANSACTION].sort());
    for (const name of IN_TRANSACTION) expect(Object.keys(store)).not.toContain(name);
    for (const name of LIFECYCLE) expect(keys).not.toContain(name);
    // Checked by the type checker: the transaction's store has no such methods to call.
    expectTypeOf<TxStore>().not.toHaveProperty('migrate');
    expectTypeOf<TxStore>().not.toHaveProperty('close');
    expectTypeOf<TxStore>().not.toHaveProperty('transaction');
    expectTypeOf<TxStore>().not.toHaveProperty('watchQueued');
    expectTypeOf<TxStore>().not.toHaveProperty('bulkWrites');
    expectTypeOf<Store>().toExtend<TxStore>();
  });

  it('commits all of its work, or none of it when the work fails (operations that open a transaction join it)', async () => {
    const store = await backend.open();
    const kept = await store.transaction(async (tx) => (await tx.upsertContacts([{ waId: '447700900001' }], T0)).ids[0]);
    const failed = store.transaction(async (tx) => {
      await tx.upsertContacts([{ waId: '447700900002' }], T0);
      await tx.upsertTemplates(
        [{ name: 'welcome', language: 'en', category: 'utility', status: 'approved', quality: null, pausedUntil: null }],
        T0,
      );
      throw new Error('the work failed');
    });
    await expect(failed).rejects.toThrow('the work failed');
    expect(await store.getContact(kept ?? -1)).toMatchObject({ waId: '447700900001' });
    expect(await store.findContact({ waId: '447700900002' })).toBeNull();
    expect(await store.getTemplate('welcome', 'en')).toBeNull();
  });
});
