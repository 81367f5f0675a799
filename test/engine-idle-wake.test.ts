import { describe, expect, it } from 'vitest';
import { DEFAULT_POLICY } from '../src/core/policy.js';
import { HOUR, MINUTE, type Millis } from '../src/core/time.js';
import { startEngine, type Engine } from '../src/main/engine.js';
import type { Scheduler, Task, Timer } from '../src/ports/clock.js';
import type { Store, TxStore } from '../src/ports/store.js';
import { BACKENDS } from './store-backends.js';
import { seedCampaign } from './store-seed.js';

const T0 = Date.UTC(2026, 2, 2, 8, 0, 0);
const LEASE_MS = 5000;

/** A clock the test sets by hand; timers are recorded, and run only when the test runs them. */
class HandClock implements Scheduler {
  readonly timers: Array<{ at: Millis; task: Task }> = [];
  constructor(private current: Millis) {}
  now(): Millis {
    return this.current;
  }
  set(at: Millis): void {
    this.current = at;
  }
  at(at: Millis, task: Task): Timer {
    this.timers.push({ at, task });
    return { cancel: () => undefined };
  }
}

interface Worker {
  engine: Engine;
  clock: HandClock;
  /** When the dispatcher loop's next pass is due. */
  nextPassAt(): Millis;
  /** Runs that pass at its time; resolves with when the pass after it is due. */
  runPass(): Promise<Millis>;
  health(): Promise<unknown>;
}

/**
 * One engine on a hand clock, dispatching (nothing listens at the API address: these passes send
 * nothing). `during` runs inside each claim, after the rows were read, as time that
 * passes while a pass runs on real time.
 */
async function startWorker(store: Store, during: (clock: HandClock) => void = () => undefined): Promise<Worker> {
  const clock = new HandClock(T0);
  // The dispatcher claims inside its transaction: the transaction's store races the same way.
  const racingClaims = <S extends TxStore>(s: S): S => ({
    ...s,
    claimDue: async (options) => {
      const rows = await s.claimDue(options);
      during(clock);
      return rows;
    },
  });
  const racing = (s: Store): Store => ({ ...racingClaims(s), transaction: (work) => s.transaction((tx) => work(racingClaims(tx))) });
  const engine = await startEngine({
    store: racing(store),
    clock,
    policy: DEFAULT_POLICY,
    random: () => 0.5,
    http: { host: '127.0.0.1', port: 0, appSecrets: ['idle-wake-secret'], verifyToken: null, mode: 'production' },
    worker: { owner: 'idle-wake', mps: 10, leaseMs: LEASE_MS },
    cloudApi: { baseUrl: 'http://127.0.0.1:9', apiVersion: 'v24.0', phoneNumberId: 'pn-1', accessToken: 'unused' },
  });
  // The dispatcher loop's first pass is the first timer (the campaign checks come next); each pass
  // then sets one timer, its successor.
  let loop = clock.timers[0];
  return {
    engine,
    clock,
    nextPassAt: () => loop?.at ?? Number.NaN,
    async runPass() {
      if (loop === undefined) throw new Error('no dispatcher pass is scheduled');
      const before = clock.timers.length;
      clock.set(Math.max(clock.now(), loop.at));
      await loop.task();
      loop = clock.timers[before];
      if (loop === undefined || clock.timers.length !== before + 1) throw new Error('a pass must schedule exactly its successor');
      return loop.at;
    },
    health: async () => (await engine.server.inject({ url: '/healthz' })).json(),
  };
}

describe.each(BACKENDS)('when the dispatcher loop comes back after a pass that claimed nothing ($name)', (backend) => {
  it('at once for a row that fell due while the pass ran, not after the idle poll', async () => {
    const store = await backend.open();
    const seed = await seedCampaign(store, T0, 1);
    await store.insertOutbox(
      seed.rows(() => T0 + 5),
      T0,
    );
    // The claim reads the rows at T0; by the time the pass looks for the next work it is T0 + 20.
    const w = await startWorker(store, (clock) => clock.set(T0 + 20));
    try {
      const next = await w.runPass();
      expect(next - (T0 + 20)).toBeGreaterThan(0);
      expect(next - (T0 + 20)).toBeLessThan(1000);
      expect(w.engine.dispatchStatus()).toMatchObject({
        passes: 1,
        failures: 0,
        running: null,
        last: { result: { claimed: 0 } },
        next: { at: next, why: 'idle' },
      });
    } finally {
      await w.engine.stop();
    }
  });

  it('when the next row falls due, and it says so in /healthz', async () => {
    const store = await backend.open();
    const seed = await seedCampaign(store, T0, 1);
    await store.insertOutbox(
      seed.rows(() => T0 + MINUTE),
      T0,
    );
    const w = await startWorker(store);
    try {
      expect(await w.runPass()).toBe(T0 + MINUTE);
      expect(await w.health()).toMatchObject({
        status: 'ok',
        dispatch: { passes: 1, running: null, next: { at: T0 + MINUTE, why: 'idle' }, pace: { wanted: 10 } },
      });
      // A number backing off after a rate limit can still send soon: not degraded.
      await store.setSenderState('pn-1', 'throttled', '130429 Throughput limit', T0 + HOUR, T0);
      expect(await w.health()).toMatchObject({ status: 'ok' });
      expect(await w.health()).not.toHaveProperty('senders');
    } finally {
      await w.engine.stop();
    }
  });

  it("when a dead worker's lease runs out: it sweeps the row back and takes it", async () => {
    const store = await backend.open();
    const seed = await seedCampaign(store, T0, 1);
    // Nobody opted in, so the row is decided (skipped) without a send.
    await store.insertOutbox(
      seed.rows(() => T0 - 3000).map((r) => ({ ...r, intent: { phoneNumberId: 'pn-1', template: { name: 'promo', language: 'en' } } })),
      T0,
    );
    const [taken] = await store.claimDue({ owner: 'worker-that-died', now: T0 - 3000, leaseMs: LEASE_MS, limit: 1 });
    const w = await startWorker(store);
    try {
      // Nothing due: the only work left is the dead worker's lease, which runs out at T0 + 2 s, sooner
      // than this worker's own once-per-lease sweep would come round.
      expect(await w.runPass()).toBe(T0 + 2000);
      await w.runPass();
      expect(w.engine.dispatchStatus()?.last?.result).toMatchObject({ claimed: 1, skipped: 1 });
      expect(await store.getOutbox(taken?.id ?? -1)).toMatchObject({ status: 'done', outcome: 'skipped' });
    } finally {
      await w.engine.stop();
    }
  });
});
