import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import pg from 'pg';
import { openStore, type OpenStoreOptions } from '../../src/adapters/storage/open-store.js';
import { DEFAULT_POLICY } from '../../src/core/policy.js';
import { DAY } from '../../src/core/time.js';
import { systemClock } from '../../src/ports/clock.js';
import type { Store } from '../../src/ports/store.js';
import { API_VERSION, queueSends, seedWorld, startSimulatorProcess, type SimulatorProcess, type World } from '../fixtures/dispatch-rig.js';
import type { Benchmark, Sample } from '../harness/types.js';

const DATABASE_URL = process.env.PACER_BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

interface Ctx {
  storeOptions: OpenStoreOptions;
  store: Store;
  sim: SimulatorProcess;
  world: World;
  sends: number;
  batches: number;
}

interface WorkerResult {
  sent: number;
  claimed: number;
  cpuSeconds: number;
}

/** Starts `workers` worker processes, waits until every one is connected, then times them from one "go" to the last one done. */
async function runWorkers(ctx: Ctx, workers: number): Promise<{ perSecond: number; cpuSeconds: number }> {
  ctx.sim.advance(DAY).catch(() => undefined);
  const queued = await queueSends(ctx.store, ctx.world, `pgw-${ctx.batches++}`, 0, ctx.sends, systemClock.now());
  const api = { baseUrl: ctx.sim.url, apiVersion: API_VERSION, phoneNumberId: ctx.sim.phoneNumberId, accessToken: ctx.sim.accessToken };
  const children = Array.from({ length: workers }, () =>
    spawn(
      process.execPath,
      ['--import', 'tsx', 'bench/fixtures/dispatch-worker-process.ts', JSON.stringify(ctx.storeOptions), JSON.stringify(api)],
      { stdio: ['pipe', 'pipe', 'inherit'] },
    ),
  );
  try {
    const outputs = children.map((child) => {
      const lines = createInterface({ input: child.stdout });
      const got: string[] = [];
      const waiters: Array<() => void> = [];
      lines.on('line', (l) => {
        got.push(l);
        waiters.splice(0).forEach((w) => w());
      });
      const exited = new Promise<number | null>((resolve) =>
        child.once('exit', (code) => {
          waiters.splice(0).forEach((w) => w());
          resolve(code);
        }),
      );
      const line = async (n: number): Promise<string> => {
        while (got.length < n) {
          if (child.exitCode !== null) throw new Error(`dispatch worker exited with code ${child.exitCode}`);
          await new Promise<void>((resolve) => waiters.push(resolve));
        }
        return got[n - 1]!;
      };
      return { line, exited };
    });
    await Promise.all(outputs.map((o) => o.line(1)));
    const started = performance.now();
    for (const child of children) child.stdin.end('go\n');
    const results = (await Promise.all(outputs.map((o) => o.line(2)))).map((l) => JSON.parse(l) as WorkerResult);
    const seconds = (performance.now() - started) / 1000;
    const sent = results.reduce((a, r) => a + r.sent, 0);
    const claimed = results.reduce((a, r) => a + r.claimed, 0);
    if (claimed !== queued || sent < claimed * 0.95)
      throw new Error(`dispatch-postgres-workers: ${sent} sent of ${claimed} claimed, ${queued} queued`);
    await Promise.all(outputs.map((o) => o.exited));
    return { perSecond: sent / seconds, cpuSeconds: results.reduce((a, r) => a + r.cpuSeconds, 0) };
  } finally {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  }
}

const benchmark: Benchmark<Ctx> = {
  name: 'dispatch-postgres-workers',
  row: 'postgres-workers',
  figure:
    'Sends per second through 3 (extras: 2) dispatcher worker processes sharing one PostgreSQL database on loopback (SKIP LOCKED claims), one simulator process, batches of 1,000, 32 in flight each',
  against: 'one worker process, same database and simulator',
  target: 'near-linear until the database saturates',
  unit: 'sends/s',
  maxRounds: 3,
  maxWarmup: 0,
  async setup({ quick }) {
    const sends = quick ? 600 : 3_000;
    const sim = await startSimulatorProcess(sends);
    const storeOptions: OpenStoreOptions = { databaseUrl: DATABASE_URL, schema: `pacer_bench_workers_${process.pid}_${Date.now()}` };
    const store = openStore(storeOptions);
    await store.migrate();
    const world = await seedWorld(store, sim, DEFAULT_POLICY, systemClock.now(), 1_000);
    return { storeOptions, store, sim, world, sends, batches: 0 };
  },
  async pacer(ctx): Promise<Sample> {
    const two = await runWorkers(ctx, 2);
    const three = await runWorkers(ctx, 3);
    return { value: three.perSecond, extras: { twoWorkersPerSecond: two.perSecond, cpuMsPerSend: (three.cpuSeconds * 1000) / ctx.sends } };
  },
  async reference(ctx): Promise<Sample> {
    const one = await runWorkers(ctx, 1);
    return { value: one.perSecond, extras: { cpuMsPerSend: (one.cpuSeconds * 1000) / ctx.sends } };
  },
  async teardown(ctx) {
    await ctx.store.close();
    await ctx.sim.stop();
    const client = new pg.Client({ connectionString: DATABASE_URL });
    await client.connect();
    try {
      await client.query(`DROP SCHEMA IF EXISTS ${ctx.storeOptions.schema} CASCADE`); // a name we generated
    } finally {
      await client.end();
    }
  },
  // Judged by reading: where the curve bends depends on the cores the database has to itself.
  meets: () => null,
};

export default benchmark;
