import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openStore } from '../../src/adapters/storage/open-store.js';
import { DEFAULT_POLICY } from '../../src/core/policy.js';
import { DAY } from '../../src/core/time.js';
import { startEngine, type Engine } from '../../src/main/engine.js';
import { silentLogger } from '../../src/ports/logger.js';
import { systemClock } from '../../src/ports/clock.js';
import type { Store } from '../../src/ports/store.js';
import {
  API_VERSION,
  benchRandom,
  queueSends,
  seedWorld,
  startSimulatorProcess,
  type SimulatorProcess,
  type World,
} from '../fixtures/dispatch-rig.js';
import type { Benchmark } from '../harness/types.js';

/** Meta's default throughput per number, which each of Pacer's numbers is paced at. */
const MPS = 80;
const NUMBERS = 10;
/** Samples before a person is messaged again (the pair rate spaces messages to one person). */
const SPREAD = 6;

interface Side {
  engine: Engine;
  worlds: World[];
}

interface Ctx {
  dir: string;
  sim: SimulatorProcess;
  store: Store;
  many: Side;
  one: Side;
  perNumber: number;
  round: number;
}

/**
 * One process sending from `numbers` at once, each number paced at 80/s by its own bucket, as
 * `pacer serve` does with several numbers. Work is announced through the engine's signal (no
 * store watch), so the engine of the other side sleeps while this one is measured.
 */
async function side(store: Store, sim: SimulatorProcess, base: World, numbers: readonly string[], owner: string): Promise<Side> {
  const worlds: World[] = [];
  for (const phoneNumberId of numbers) {
    const [senderId] = await store.upsertSenders(
      [
        {
          phoneNumberId,
          displayNumber: phoneNumberId,
          qualityRating: 'GREEN',
          throughputMps: MPS,
          messagingLimitTier: 'TIER_UNLIMITED',
          state: 'ok',
          stateReason: null,
          stateUntil: null,
        },
      ],
      systemClock.now(),
    );
    if (senderId === undefined) throw new Error('dispatch-10-numbers: no sender id');
    worlds.push({ ...base, phoneNumberId, senderId });
  }
  const [first, ...others] = numbers.map((phoneNumberId) => ({ phoneNumberId, accessToken: sim.accessToken }));
  if (first === undefined) throw new Error('dispatch-10-numbers: no number');
  const engine = await startEngine({
    store,
    clock: systemClock,
    policy: DEFAULT_POLICY,
    random: benchRandom(),
    logger: silentLogger,
    http: { host: '127.0.0.1', port: 0, appSecrets: ['bench'], verifyToken: null, mode: 'production' },
    worker: { owner, mps: MPS },
    cloudApi: { baseUrl: sim.url, apiVersion: API_VERSION, ...first, otherNumbers: others },
    watchQueued: false,
  });
  return { engine, worlds };
}

/** Queues `perNumber` sends for each of the side's numbers, wakes its loops, and resolves once every one was sent. */
async function run(ctx: Ctx, s: Side): Promise<{ value: number; extras: Record<string, number> }> {
  const round = ctx.round++;
  const now = systemClock.now();
  let queued = 0;
  for (const [k, w] of s.worlds.entries()) {
    // Each number its own people this round; a person comes round again only after SPREAD rounds.
    const from = ((round % SPREAD) * NUMBERS + k) * ctx.perNumber;
    queued += await queueSends(ctx.store, w, `b${round}-${w.phoneNumberId}`, from, ctx.perNumber, now);
  }
  let sent = 0;
  const done = new Promise<void>((resolve, reject) => {
    const offs = [...s.engine.loops.values()].map((loop) =>
      loop.onPass((p) => {
        if ('error' in p.outcome) return reject(p.outcome.error instanceof Error ? p.outcome.error : new Error(String(p.outcome.error)));
        sent += p.outcome.result.sent;
        if (sent >= queued) {
          for (const off of offs) off();
          resolve();
        }
      }),
    );
  });
  const cpu = process.cpuUsage();
  const started = performance.now();
  s.engine.signal.notifyQueued(now);
  await done;
  const used = process.cpuUsage(cpu);
  const seconds = (performance.now() - started) / 1000;
  return { value: (used.user + used.system) / sent, extras: { sendsPerSecond: sent / seconds, numbers: s.worlds.length } };
}

const benchmark: Benchmark<Ctx> = {
  name: 'dispatch-10-numbers',
  row: 'sends-many-numbers',
  figure:
    'CPU microseconds (user + system) of the Pacer process per send, one process sending from 10 numbers at once, each paced at 80/s by its own bucket (real dispatch loops, SQLite, simulator in another process)',
  against: 'the same process shape sending from one number at 80/s, same sends per number',
  target: 'CPU per send within 20 % of the one-number figure',
  unit: 'µs CPU/send',
  higherIsBetter: false,
  maxRounds: 3,
  maxWarmup: 1,
  async setup({ quick }) {
    const perNumber = quick ? 80 : 400;
    const sim = await startSimulatorProcess((NUMBERS + 1) * perNumber * SPREAD, NUMBERS + 1);
    const dir = mkdtempSync(path.join(tmpdir(), 'pacer-bench-numbers-'));
    const store = openStore({ dataDir: dir });
    await store.migrate();
    const base = await seedWorld(store, sim, DEFAULT_POLICY, systemClock.now(), MPS);
    const ids = sim.phoneNumberIds;
    const many = await side(store, sim, base, ids.slice(0, NUMBERS), 'bench-many');
    const one = await side(store, sim, base, ids.slice(NUMBERS, NUMBERS + 1), 'bench-one');
    return { dir, sim, store, many, one, perNumber, round: 0 };
  },
  async prepare(ctx) {
    await ctx.sim.advance(DAY);
  },
  pacer: (ctx) => run(ctx, ctx.many),
  reference: (ctx) => run(ctx, ctx.one),
  async teardown(ctx) {
    await ctx.many.engine.stop();
    await ctx.one.engine.stop();
    await ctx.store.close();
    await ctx.sim.stop();
    rmSync(ctx.dir, { recursive: true, force: true });
  },
  meets: ({ ratio }) => ratio <= 1.2,
};

export default benchmark;
