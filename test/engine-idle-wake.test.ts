import { describe, expect, it } from 'vitest';
import type { DispatchStatus } from '../src/app/dispatch-status.js';
import { DEFAULT_POLICY } from '../src/core/policy.js';
import { MINUTE, type Millis } from '../src/core/time.js';
import { startEngine, type Engine } from '../src/main/engine.js';
import type { Scheduler, Task, Timer } from '../src/ports/clock.js';
import type { Store } from '../src/ports/store.js';
import { BACKENDS } from './store-backends.js';
import { seedCampaign } from './store-seed.js';

const T0 = Date.UTC(2026, 2, 2, 8, 0, 0);

/** A clock the test sets by hand; timers are recorded, and run only when the test runs them. */
class HandClock implements Scheduler {
  readonly timers: Array<{ at: Millis; task: Task; cancelled: boolean }> = [];
  constructor(private current: Millis) {}
  now(): Millis {
    return this.current;
  }
  set(at: Millis): void {
    this.current = at;
  }
  at(at: Millis, task: Task): Timer {
    const timer = { at, task, cancelled: false };
    this.timers.push(timer);
    return { cancel: () => void (timer.cancelled = true) };
  }
}

/**
 * One dispatcher pass that claims nothing, with the time moving on while it runs (as it does on
 * real time): the claim is made at `T0`, the next due time is read at `T0 + 20`.
 */
async function idlePass(store: Store, dueAt: Millis): Promise<{ next: Millis; status: DispatchStatus | null; health: unknown }> {
  const seed = await seedCampaign(store, T0, 1);
  await store.insertOutbox(seed.rows(() => dueAt), T0);
  const clock = new HandClock(T0);
  const racing: Store = {
    ...store,
    claimDue: async (options) => {
      const rows = await store.claimDue(options);
      clock.set(T0 + 20);
      return rows;
    },
  };
  const engine: Engine = await startEngine({
    store: racing, clock, policy: DEFAULT_POLICY, random: () => 0.5,
    http: { host: '127.0.0.1', port: 0, appSecrets: ['idle-wake-secret'], verifyToken: null, mode: 'production' },
    worker: { owner: 'idle-wake', mps: 10 },
  });
  try {
    // Nothing listens there: this pass claims nothing, so it sends nothing.
    engine.start({ baseUrl: 'http://127.0.0.1:9', apiVersion: 'v24.0', phoneNumberId: 'pn-1', accessToken: 'unused' });
    const [first] = clock.timers; // the dispatcher loop's first pass (breakers come next)
    if (first === undefined) throw new Error('no dispatcher pass was scheduled');
    const scheduled = clock.timers.length;
    await first.task();
    const next = clock.timers[scheduled];
    if (next === undefined) throw new Error('the pass scheduled no next pass');
    const health = await (await fetch(`${engine.url}/healthz`)).json();
    return { next: next.at, status: engine.dispatchStatus(), health };
  } finally {
    await engine.stop();
  }
}

describe.each(BACKENDS)('a dispatcher pass that claimed nothing ($name)', (backend) => {
  it('comes back at once for a row that fell due while the pass ran, not after the idle poll', async () => {
    const { next, status } = await idlePass(await backend.open(), T0 + 5);
    expect(next - (T0 + 20)).toBeGreaterThan(0);
    expect(next - (T0 + 20)).toBeLessThan(1000);
    expect(status).toMatchObject({ passes: 1, failures: 0, running: null, last: { result: { claimed: 0 } }, next: { at: next, why: 'idle' } });
  });

  it('sleeps until the next row falls due, and says so in /healthz', async () => {
    const { next, health } = await idlePass(await backend.open(), T0 + MINUTE);
    expect(next).toBe(T0 + MINUTE);
    expect(health).toMatchObject({ status: 'ok', dispatch: { passes: 1, running: null, next: { at: T0 + MINUTE, why: 'idle' }, pace: { wanted: 10 } } });
  });
});
