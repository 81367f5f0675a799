import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { StoreError, type InboxInput, type Store } from '../../ports/store.js';
import { openStore } from '../storage/open-store.js';
import { InboxWriter } from './inbox-writer.js';

async function sqliteStore(): Promise<Store> {
  const dir = mkdtempSync(path.join(tmpdir(), 'pacer-inbox-writer-'));
  const store = openStore({ dataDir: dir });
  onTestFinished(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  await store.migrate();
  return store;
}

/** The real store, with its batch calls recorded; `before` runs ahead of each call (to hold or fail it). */
function recording(store: Store, before: (call: number) => Promise<void> | void = () => undefined) {
  const calls: InboxInput[][] = [];
  const wrapped: Pick<Store, 'appendInboxBatch'> = {
    appendInboxBatch: async (entries) => {
      calls.push([...entries]);
      await before(calls.length);
      return store.appendInboxBatch(entries);
    },
  };
  return { wrapped, calls };
}

function entry(text: string): InboxInput {
  return { raw: Buffer.from(text), receivedAt: 1_000, signatureOk: true };
}

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve = (): void => undefined;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

describe('InboxWriter', () => {
  it('commits payloads appended in the same turn in one transaction, answering each with its own id', async () => {
    const store = await sqliteStore();
    const { wrapped, calls } = recording(store);
    const flushed: number[][] = [];
    const writer = new InboxWriter(wrapped, { onFlushed: (ids) => void flushed.push(ids) });
    const ids = await Promise.all(['a', 'b', 'c', 'd'].map((t) => writer.append(entry(t))));
    expect(calls.map((c) => c.length)).toEqual([4]);
    expect(flushed).toEqual([ids]);
    const rows = await store.listUnprocessedInbox(0, 10);
    expect(rows.map((r) => [r.id, Buffer.from(r.raw).toString()])).toEqual(ids.map((id, i) => [id, 'abcd'[i]]));
  });

  it('gathers what arrives during a commit into the next one, and splits at the batch limit', async () => {
    const store = await sqliteStore();
    const hold = deferred();
    const { wrapped, calls } = recording(store, (call) => (call === 1 ? hold.promise : undefined));
    const writer = new InboxWriter(wrapped, { maxBatch: 3 });
    const first = writer.append(entry('first'));
    const firstCall = new Promise<void>((resolve) => setImmediate(resolve)); // the writer's flush turn
    await firstCall;
    expect(calls).toHaveLength(1);
    const rest = ['1', '2', '3', '4', '5'].map((t) => writer.append(entry(t)));
    expect(writer.pending).toBe(5);
    hold.resolve();
    await Promise.all([first, ...rest]);
    expect(calls.map((c) => c.map((e) => Buffer.from(e.raw).toString()))).toEqual([['first'], ['1', '2', '3'], ['4', '5']]);
  });

  it('rejects every waiter of a failed commit with the store error, then carries on', async () => {
    const store = await sqliteStore();
    const { wrapped } = recording(store, (call) => {
      if (call === 1) throw new StoreError('busy', 'appendInboxBatch', 'database is locked');
    });
    const writer = new InboxWriter(wrapped);
    const failed = await Promise.allSettled([writer.append(entry('x')), writer.append(entry('y'))]);
    expect(failed.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(failed[0]?.status === 'rejected' && failed[0].reason).toBeInstanceOf(StoreError);
    const id = await writer.append(entry('z'));
    expect((await store.listUnprocessedInbox(0, 10)).map((r) => r.id)).toEqual([id]);
  });

  it('rejects with a StoreError when the store is closed', async () => {
    const store = await sqliteStore();
    await store.close();
    const writer = new InboxWriter(store);
    await expect(writer.append(entry('late'))).rejects.toBeInstanceOf(StoreError);
  });

  it('refuses a store answer with the wrong number of ids', async () => {
    const store = await sqliteStore();
    const writer = new InboxWriter({ appendInboxBatch: async (entries) => (await store.appendInboxBatch(entries)).slice(1) });
    await expect(writer.append(entry('one'))).rejects.toThrow('appendInboxBatch returned 0 ids for 1 payloads');
  });

  it('keeps answering when the batch callback throws, and reports the throw', async () => {
    const store = await sqliteStore();
    const errors: unknown[] = [];
    const writer = new InboxWriter(store, {
      onFlushed: () => {
        throw new Error('callback bug');
      },
      onFlushedError: (error) => void errors.push(error),
    });
    expect(await writer.append(entry('a'))).toBeGreaterThan(0);
    expect(await writer.append(entry('b'))).toBeGreaterThan(0);
    expect(errors.map((e) => (e as Error).message)).toEqual(['callback bug', 'callback bug']);
  });

  it('drain waits for everything queued and is immediate when idle', async () => {
    const store = await sqliteStore();
    const writer = new InboxWriter(store);
    await writer.drain();
    const settled: string[] = [];
    for (const t of ['a', 'b']) void writer.append(entry(t)).then(() => settled.push(t));
    await writer.drain();
    expect(settled).toEqual(['a', 'b']);
    expect((await store.listUnprocessedInbox(0, 10)).length).toBe(2);
    expect(settled).toEqual(['a', 'b']);
  });

  it('rejects a batch limit that is not a positive integer', () => {
    expect(() => new InboxWriter({ appendInboxBatch: async () => [] }, { maxBatch: 0 })).toThrow(
      'maxBatch must be a positive integer, got 0',
    );
  });
});
