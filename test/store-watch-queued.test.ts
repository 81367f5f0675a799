import { describe, expect, it, vi } from 'vitest';
import { workChannel } from '../src/adapters/storage/postgres/work-channel.js';
import type { Store } from '../src/ports/store.js';
import { BACKENDS, type Place } from './store-backends.js';
import { seedCampaign } from './store-seed.js';

const T0 = Date.UTC(2026, 2, 2, 8, 0, 0);

async function migrated(place: Place): Promise<Store> {
  const store = place.open();
  await store.migrate();
  return store;
}

/** Everything `store`'s watch hears, once it listens. */
async function watching(store: Store): Promise<number[]> {
  const heard: number[] = [];
  const watch = store.watchQueued((at) => heard.push(at));
  await vi.waitFor(() => expect(watch.connected()).toBe(true), { timeout: 10_000 });
  return heard;
}

describe.each(BACKENDS)("the store's watch for queued work ($name)", (backend) => {
  it('hears of rows another connection commits, with when they fall due, and nothing of a rolled-back insert', async () => {
    const place = backend.place();
    const writer = await migrated(place);
    const seed = await seedCampaign(writer, T0, 2);
    const [first, second] = seed.rows(() => T0 + 60_000);
    if (first === undefined || second === undefined) throw new Error('seed rows missing');
    const heard = await watching(await migrated(place));

    await expect(
      writer.transaction(async (tx) => {
        await tx.insertOutbox([{ ...first, nextAttemptAt: T0 + 1000 }], T0);
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    await writer.insertOutbox([second], T0);
    // Notifications arrive in commit order: had the rolled-back insert notified, T0 + 1000 would come first.
    await vi.waitFor(() => expect(heard.length).toBeGreaterThan(0), { timeout: 10_000 });
    expect(heard[0]).toBe(T0 + 60_000);
  });
});

describe('PostgreSQL notifications of queued work', () => {
  const postgres = BACKENDS.find((b) => b.name === 'postgres');
  if (postgres === undefined) throw new Error('no PostgreSQL backend');

  it('stay within their schema: another install in the same database wakes nobody here', async () => {
    const here = postgres.place();
    const heard = await watching(await migrated(here));
    const elsewhere = await migrated(postgres.place());
    const other = await seedCampaign(elsewhere, T0, 1);
    await elsewhere.insertOutbox(
      other.rows(() => T0 + 5),
      T0,
    );
    const writer = await migrated(here);
    const mine = await seedCampaign(writer, T0, 1);
    await writer.insertOutbox(
      mine.rows(() => T0 + 7),
      T0,
    );
    await vi.waitFor(() => expect(heard.length).toBeGreaterThan(0), { timeout: 10_000 });
    expect(heard[0]).toBe(T0 + 7);
  });

  it('come from every write that makes rows due: a campaign set running, a requeue, held rows woken', async () => {
    const place = postgres.place();
    const writer = await migrated(place);
    const seed = await seedCampaign(writer, T0, 2, 'paused');
    await writer.insertOutbox(
      seed.rows(() => T0),
      T0,
    );
    const heard = await watching(await migrated(place));
    // A fresh schema numbers its rows from 1.
    const [a, b] = [await writer.getOutbox(1), await writer.getOutbox(2)];
    if (a === null || b === null) throw new Error('rows missing');
    await place.raw(`UPDATE outbox SET status = 'sent' WHERE id = ${a.id}; UPDATE outbox SET status = 'held' WHERE id = ${b.id}`);

    await writer.setCampaignStatus(seed.campaignId, 'running', null, T0 + 10);
    await writer.requeue(a.id, { status: 'queued', until: T0 + 20, capAttempt: false, errorCode: 131049 }, T0 + 11);
    await writer.wakeHeld(b.contactId, T0 + 30);
    // Writes that make nothing due say nothing.
    await writer.setCampaignStatus(seed.campaignId, 'paused', 'by hand', T0 + 40);
    await writer.wakeHeld(b.contactId, T0 + 50);
    await writer.setCampaignStatus(seed.campaignId, 'running', null, T0 + 60);
    await vi.waitFor(() => expect(heard).toHaveLength(4), { timeout: 10_000 });
    expect(heard).toEqual([T0 + 10, T0 + 20, T0 + 30, T0 + 60]);
  });

  it('use a channel per schema that PostgreSQL does not cut short', () => {
    expect(workChannel('public')).toBe('pacer_work_public');
    expect(workChannel('tenant_a')).not.toBe(workChannel('tenant_b'));
    const long = 'a'.repeat(63);
    expect(workChannel(long).length).toBeLessThanOrEqual(63);
    expect(workChannel(long)).not.toBe(workChannel(`${'a'.repeat(62)}b`));
    expect(workChannel(long)).toBe(workChannel(long));
  });
});
