import { describe, expect, it } from 'vitest';
import { BACKENDS } from './store-backends.js';

const T0 = Date.UTC(2026, 0, 5, 9, 0, 0);
const KEY = 'sender:106540352242922';

describe.each(BACKENDS)('Store contract: send pace shared by processes ($name)', (backend) => {
  it('starts full, grants whole tokens up to the burst, then says when a request can be filled again', async () => {
    const store = await backend.open();
    expect(await store.takePace({ key: KEY, want: 3, perSecond: 10, burst: 5, now: T0 })).toEqual({ granted: 3, nextAt: T0 + 100 });
    // Wanting more than the burst: worth coming back when a whole burst is there again.
    expect(await store.takePace({ key: KEY, want: 9, perSecond: 10, burst: 5, now: T0 })).toEqual({ granted: 2, nextAt: T0 + 500 });
    expect(await store.takePace({ key: KEY, want: 1, perSecond: 10, burst: 5, now: T0 + 50 })).toEqual({ granted: 0, nextAt: T0 + 100 });
    // Refilled at 10 a second: half a second gives 5, never more than the burst.
    expect(await store.takePace({ key: KEY, want: 9, perSecond: 10, burst: 5, now: T0 + 550 })).toEqual({ granted: 5, nextAt: T0 + 1050 });
    expect(await store.takePace({ key: KEY, want: 9, perSecond: 10, burst: 5, now: T0 + 60_000 })).toEqual({
      granted: 5,
      nextAt: T0 + 60_500,
    });
    // Another key is another bucket.
    expect(await store.takePace({ key: 'sender:2', want: 9, perSecond: 10, burst: 5, now: T0 + 60_000 })).toMatchObject({ granted: 5 });
  });

  it('mints nothing for a clock behind the last taker, and takes back unspent tokens up to the burst', async () => {
    const store = await backend.open();
    await store.takePace({ key: KEY, want: 4, perSecond: 10, burst: 4, now: T0 });
    // A process whose clock is a second behind finds the bucket as the last taker left it.
    expect(await store.takePace({ key: KEY, want: 4, perSecond: 10, burst: 4, now: T0 - 1000 })).toEqual({ granted: 0, nextAt: T0 + 400 });
    await store.returnPace(KEY, 3, 4);
    expect(await store.takePace({ key: KEY, want: 4, perSecond: 10, burst: 4, now: T0 })).toEqual({ granted: 3, nextAt: T0 + 400 });
    await store.returnPace(KEY, 10, 4);
    expect(await store.takePace({ key: KEY, want: 9, perSecond: 10, burst: 4, now: T0 })).toMatchObject({ granted: 4 });
  });

  it('never grants one token twice to processes taking at the same moments', async () => {
    const place = backend.place();
    await place.open().migrate();
    // Three processes, each with its own connection, take every 10 ms for 3 s at 20 tokens a second.
    const stores = [place.open(), place.open(), place.open()];
    const grants: Array<{ at: number; n: number }> = [];
    for (let at = T0; at <= T0 + 3000; at += 10) {
      const taken = await Promise.all(stores.map((s) => s.takePace({ key: KEY, want: 3, perSecond: 20, burst: 2, now: at })));
      for (const g of taken) if (g.granted > 0) grants.push({ at, n: g.granted });
    }
    const total = grants.reduce((sum, g) => sum + g.n, 0);
    expect(total).toBe(2 + 60); // the full bucket, then exactly the refill of 3 s
    // In any second, no more than one second's refill plus the burst.
    for (let from = T0; from <= T0 + 2000; from += 10) {
      const inWindow = grants.filter((g) => g.at >= from && g.at < from + 1000).reduce((sum, g) => sum + g.n, 0);
      expect(inWindow, `window from +${from - T0} ms`).toBeLessThanOrEqual(20 + 2);
    }
  });

  it('refuses a request that cannot be paced, naming the values', async () => {
    const store = await backend.open();
    await expect(store.takePace({ key: KEY, want: 1, perSecond: 0, burst: 1, now: T0 })).rejects.toThrow(/perSecond > 0.*got 0, 1, 1/);
    await expect(store.takePace({ key: KEY, want: 1.5, perSecond: 5, burst: 1, now: T0 })).rejects.toThrow(/whole want/);
  });
});
