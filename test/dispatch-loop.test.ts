import { describe, expect, it } from 'vitest';
import {
  CHECKS_EVERY,
  IDLE_POLL,
  RETRY_AFTER_FAILURE,
  startDispatchLoop,
  type DispatchLoop,
  type DispatchLoopOptions,
  type PassReport,
} from '../src/app/dispatch-loop.js';
import type { TickResult } from '../src/app/dispatcher.js';
import { DEFAULT_POLICY } from '../src/core/policy.js';
import { MINUTE, type Millis } from '../src/core/time.js';
import { VirtualClock } from '../src/ports/clock.js';
import type { LogFields, Logger } from '../src/ports/logger.js';
import { StoreError, type Store } from '../src/ports/store.js';
import type { WorkSignal } from '../src/ports/work-signal.js';
import { createWorkSignal } from '../src/app/work-signal.js';
import { BACKENDS } from './store-backends.js';
import { seedCampaign } from './store-seed.js';

const T0 = Date.UTC(2026, 2, 2, 8, 0, 0);
const BURST = 100;
const NOTHING: TickResult = {
  claimed: 0,
  sent: 0,
  deferred: 0,
  held: 0,
  skipped: 0,
  failed: 0,
  retry: 0,
  unknown: 0,
  lost_lease: 0,
  pacedUntil: null,
};

interface Entry {
  level: 'error' | 'warn' | 'info' | 'debug';
  message: string;
  fields: LogFields | undefined;
}

function recordingLogger(): Logger & { entries: Entry[] } {
  const entries: Entry[] = [];
  const at = (level: Entry['level']) => (message: string, fields?: LogFields) => void entries.push({ level, message, fields });
  return { entries, error: at('error'), warn: at('warn'), info: at('info'), debug: at('debug') };
}

interface Rig {
  clock: VirtualClock;
  loop: DispatchLoop;
  logger: ReturnType<typeof recordingLogger>;
  /** Every scheduled pass so far, in order. */
  passes: PassReport[];
  /** What happened, in order: `drain` for the inbox, `tick` for a dispatcher pass. */
  calls: string[];
}

/** Advances the clock to the pass the loop has scheduled and returns when that pass schedules the next. */
async function nextScheduled(r: Rig): Promise<PassReport['next']> {
  const pass = r.loop.nextPass();
  await r.clock.advanceTo(r.loop.status().next?.at ?? T0);
  return (await pass).next;
}

type Answer = (now: Millis) => TickResult | Error | Promise<TickResult>;

/**
 * The loop on a virtual clock over a real store, with a dispatcher whose passes the test writes:
 * `ticks` answers each pass in turn (a result, or an error to throw), then passes claim nothing.
 */
function start(store: Store, ticks: Answer[] = [], options: Partial<DispatchLoopOptions> = {}, signal?: WorkSignal): Rig {
  const clock = new VirtualClock(T0);
  const logger = recordingLogger();
  const calls: string[] = [];
  const dispatcher = {
    tick: async (): Promise<TickResult> => {
      calls.push('tick');
      const answer = (await ticks.shift()?.(clock.now())) ?? NOTHING;
      if (answer instanceof Error) throw answer;
      return answer;
    },
    progress: () => ({ pass: null, pace: null }),
  };
  const pump = { drain: async () => void calls.push('drain') };
  const loop = startDispatchLoop(
    { store, clock, policy: DEFAULT_POLICY, dispatcher, pump, logger, signal },
    { paceBurstMs: BURST, ...options },
  );
  const passes: PassReport[] = [];
  loop.onPass((p) => passes.push(p));
  return { clock, loop, logger, passes, calls };
}

const busy = (claimed: number) => (): TickResult => ({ ...NOTHING, claimed, sent: claimed });

describe.each(BACKENDS)('the dispatch loop ($name)', (backend) => {
  it('comes back one burst after a busy pass started, and when the shared bucket next has a token after a paced one', async () => {
    const r = start(await backend.open(), [
      busy(8),
      (now) => ({ ...NOTHING, claimed: 2, sent: 2, pacedUntil: now + 250 }),
      (now) => ({ ...NOTHING, pacedUntil: now }),
    ]);
    try {
      await r.clock.advance(0);
      expect(r.passes.map((p) => p.next)).toEqual([{ at: T0 + BURST, why: 'busy' }]);
      await r.clock.advance(BURST);
      expect(r.passes[1]?.next).toEqual({ at: T0 + BURST + 250, why: 'paced' });
      await r.clock.advance(250);
      // A token due already (or about to be): a short wait, never a spin.
      expect(r.passes[2]?.next).toEqual({ at: T0 + BURST + 250 + 10, why: 'paced' });
      expect(r.passes[0]?.outcome).toEqual({ result: { ...NOTHING, claimed: 8, sent: 8 } });
      expect(r.loop.status()).toMatchObject({ passes: 3, failures: 0, running: null, next: { at: T0 + BURST + 260, why: 'paced' } });
    } finally {
      await r.loop.stop();
    }
  });

  it('sleeps when idle until the next row falls due, at most the idle poll, and looks again shortly for work missed by a race', async () => {
    const store = await backend.open();
    const seed = await seedCampaign(store, T0, 3);
    const rows = seed.rows(() => T0);
    const queue = async (index: number, at: Millis) =>
      store.insertOutbox(
        rows.slice(index, index + 1).map((row) => ({ ...row, nextAttemptAt: at })),
        T0,
      );
    const r = start(store);
    try {
      const next = () => nextScheduled(r);
      expect(await next()).toEqual({ at: T0 + IDLE_POLL, why: 'idle' }); // nothing at all
      await queue(0, T0 + 60 * MINUTE);
      expect(await next()).toEqual({ at: T0 + 2 * IDLE_POLL, why: 'idle' }); // not for an hour: look again anyway
      await queue(1, T0 + 12 * MINUTE);
      expect(await next()).toEqual({ at: T0 + 12 * MINUTE, why: 'idle' });
      // That pass claims nothing (the test's dispatcher), as when another worker took the row meanwhile.
      expect(await next()).toEqual({ at: T0 + 12 * MINUTE + 100, why: 'idle' });
    } finally {
      await r.loop.stop();
    }
  });

  it('runs no dispatcher pass on an idle poll that finds nothing due: it only looks, and passes when a row falls due', async () => {
    const store = await backend.open();
    const seed = await seedCampaign(store, T0, 1);
    const r = start(store);
    try {
      const next = () => nextScheduled(r);
      expect(await next()).toEqual({ at: T0 + IDLE_POLL, why: 'idle' });
      expect(r.calls).toEqual(['drain', 'tick']); // the pass at start always runs
      await store.insertOutbox(
        seed.rows(() => T0 + 12 * MINUTE),
        T0,
      );
      // The polls: stored webhooks applied, the row not due yet, so no pass (no budget, no transaction).
      expect(await next()).toEqual({ at: T0 + 2 * IDLE_POLL, why: 'idle' });
      expect(await next()).toEqual({ at: T0 + 12 * MINUTE, why: 'idle' });
      expect(r.calls).toEqual(['drain', 'tick', 'drain', 'drain']);
      await next();
      expect(r.calls).toEqual(['drain', 'tick', 'drain', 'drain', 'drain', 'tick']);
      expect(r.loop.status()).toMatchObject({ passes: 4, failures: 0 });
    } finally {
      await r.loop.stop();
    }
  });

  it('brings an idle pass forward for queued work: to now, or to when it falls due, never before now', async () => {
    const r = start(await backend.open());
    try {
      await r.clock.advance(0);
      expect(r.passes[0]?.next).toEqual({ at: T0 + IDLE_POLL, why: 'idle' });
      await r.clock.advance(1000);
      r.loop.wake(T0 + MINUTE);
      expect(r.loop.status().next).toEqual({ at: T0 + MINUTE, why: 'queued' });
      r.loop.wake(T0 + 10 * MINUTE); // later than the pass already set: no change
      expect(r.loop.status().next).toEqual({ at: T0 + MINUTE, why: 'queued' });
      r.loop.wake(T0); // due already: now, not in the past
      expect(r.loop.status().next).toEqual({ at: T0 + 1000, why: 'queued' });
      expect(r.loop.status().wake).toEqual({ count: 3, lastAt: T0 + 1000, across: null });
      await r.clock.advance(0);
      expect(r.passes.map((p) => p.startedAt)).toEqual([T0, T0 + 1000]);
      expect(r.passes[1]?.next).toEqual({ at: T0 + 1000 + IDLE_POLL, why: 'idle' });
    } finally {
      await r.loop.stop();
    }
  });

  it('keeps a wake-up that comes while a pass runs: the pass after it comes at once, not after the idle poll', async () => {
    const holder: { loop?: DispatchLoop } = {};
    const r = start(await backend.open(), [
      () => {
        holder.loop?.wake(null); // queued while this pass claims (and before it looks for the next work)
        return NOTHING;
      },
    ]);
    holder.loop = r.loop;
    try {
      await r.clock.advance(0);
      expect(r.passes.map((p) => p.next)).toEqual([
        { at: T0, why: 'queued' },
        { at: T0 + IDLE_POLL, why: 'idle' },
      ]);
    } finally {
      await r.loop.stop();
    }
  });

  it('leaves a paced pass and the pause after a failure as they are; hears the signal until stopped', async () => {
    const signal = createWorkSignal();
    const r = start(
      await backend.open(),
      [(now) => ({ ...NOTHING, claimed: 1, sent: 1, pacedUntil: now + 400 }), () => new StoreError('unavailable', 'claimDue', 'refused')],
      {},
      signal,
    );
    try {
      await r.clock.advance(0);
      signal.notifyQueued();
      expect(r.loop.status().next).toEqual({ at: T0 + 400, why: 'paced' });
      await r.clock.advance(400);
      signal.notifyQueued(T0 + 400);
      expect(r.loop.status().next).toEqual({ at: T0 + 400 + RETRY_AFTER_FAILURE, why: 'after_failure' });
      await r.clock.advance(RETRY_AFTER_FAILURE);
      signal.notifyQueued(T0 + 400 + RETRY_AFTER_FAILURE + 50);
      expect(r.loop.status().next).toEqual({ at: T0 + 400 + RETRY_AFTER_FAILURE + 50, why: 'queued' });
    } finally {
      await r.loop.stop();
    }
    const passes = r.passes.length;
    signal.notifyQueued();
    await r.clock.advance(IDLE_POLL);
    expect(r.passes).toHaveLength(passes);
  });

  it('logs a failed pass without its values, tries again after a pause, and keeps going', async () => {
    const r = start(await backend.open(), [() => new StoreError('unavailable', 'claimDue', 'connection refused'), busy(1)]);
    try {
      await r.clock.advance(0);
      expect(r.passes[0]).toMatchObject({
        outcome: { error: expect.any(StoreError) },
        next: { at: T0 + RETRY_AFTER_FAILURE, why: 'after_failure' },
      });
      expect(r.logger.entries).toContainEqual({
        level: 'error',
        message: 'dispatch failed, retrying',
        fields: { error: 'StoreError', message: 'claimDue: connection refused', code: 'unavailable', operation: 'claimDue' },
      });
      expect(r.loop.status()).toMatchObject({ passes: 1, failures: 1, last: { failure: 'store unavailable in claimDue' } });
      await r.clock.advance(RETRY_AFTER_FAILURE);
      expect(r.passes[1]?.next).toEqual({ at: T0 + RETRY_AFTER_FAILURE + BURST, why: 'busy' });
    } finally {
      await r.loop.stop();
    }
  });

  it('applies stored webhooks before each pass, or on its own schedule for a worker', async () => {
    const before = start(await backend.open(), [busy(1)]);
    const worker = start(await backend.open(), [busy(1)], { inboxEveryMs: 5000 });
    try {
      await before.clock.advance(BURST);
      expect(before.calls).toEqual(['drain', 'tick', 'drain', 'tick']);
      await worker.clock.advance(BURST);
      expect(worker.calls).toEqual(['tick', 'drain', 'tick']);
      await worker.clock.advance(5000);
      expect(worker.calls.filter((c) => c === 'drain')).toHaveLength(2);
    } finally {
      await before.loop.stop();
      await worker.loop.stop();
    }
  });

  it('runs the campaign checks at start and every ten minutes, logging their failures and going on', async () => {
    const store = await backend.open();
    // The checks read the latest message event first; make that read fail.
    const failing: Store = Object.create(store) as Store;
    failing.latestMessageEventId = () => Promise.reject(new StoreError('unavailable', 'latestMessageEventId', 'connection refused'));
    const r = start(failing);
    try {
      const failures = () => r.logger.entries.filter((e) => e.message === 'campaign checks failed, retrying').length;
      await r.clock.advance(0);
      expect(failures()).toBe(1);
      await r.clock.advance(CHECKS_EVERY - 1);
      expect(failures()).toBe(1);
      await r.clock.advance(1);
      expect(failures()).toBe(2);
    } finally {
      await r.loop.stop();
    }
  });

  it('stops gracefully: waits for the pass under way, then schedules nothing more', async () => {
    let entered = (): void => undefined;
    const inPass = new Promise<void>((resolve) => (entered = resolve));
    let release = (): void => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const r = start(await backend.open(), [
      async () => {
        entered();
        await gate; // sends in flight
        return busy(3)();
      },
    ]);
    const advancing = r.clock.advance(0);
    await inPass;
    let stopped = false;
    const stopping = r.loop.stop().then(() => (stopped = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(stopped).toBe(false);
    release();
    await stopping;
    await advancing;
    expect(r.passes).toHaveLength(1);
    expect(r.clock.pending()).toBe(0);
    await r.clock.advance(IDLE_POLL);
    expect(r.calls.filter((c) => c === 'tick')).toHaveLength(1);
  });

  it('one pass on demand (tick) applies stored webhooks first and leaves the schedule alone', async () => {
    const r = start(await backend.open(), [busy(2)]);
    try {
      expect(await r.loop.tick()).toMatchObject({ claimed: 2 });
      expect(r.calls).toEqual(['drain', 'tick']);
      expect(r.passes).toEqual([]);
      expect(r.loop.status()).toMatchObject({ passes: 0, next: null });
    } finally {
      await r.loop.stop();
    }
  });
});
