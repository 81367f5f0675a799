import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { defaultDemoPlan } from '../../src/main/demo/demo-plan.js';
import { runPacerWorld } from '../../src/main/demo/pacer-world.js';
import { demoSimulator, LAB_START } from '../../src/main/demo/run-lab.js';
import { runNaiveWorld } from '../fixtures/naive-world.js';
import type { Benchmark, Sample } from '../harness/types.js';

const TARGET_RATIO = 1.5;

interface Ctx {
  audience: number;
  dataDir: string;
}

/** Seconds of wall time one world takes, and of this process's CPU (the machine is shared). */
async function timed(run: () => Promise<void>): Promise<Sample> {
  const cpu = process.cpuUsage();
  const began = performance.now();
  await run();
  const used = process.cpuUsage(cpu);
  return { value: (performance.now() - began) / 1000, extras: { cpuSeconds: (used.user + used.system) / 1e6 } };
}

const benchmark: Benchmark<Ctx> = {
  name: 'demo-worlds',
  row: 'demo-worlds',
  figure: "Seconds for the demo's simulated week in Pacer's world: SQLite, its HTTP server on loopback, signed webhooks",
  against: 'the naive world, same plan, simulator and seed, run alone in the same process',
  target: `≤ ${TARGET_RATIO}× the naive world`,
  unit: 's',
  higherIsBetter: false,
  maxRounds: 3,
  maxWarmup: 0,
  setup: ({ quick }) => ({ audience: quick ? 1_000 : 5_000, dataDir: path.join(tmpdir(), `pacer-bench-demo-${process.pid}`) }),
  pacer: (ctx) =>
    timed(async () => {
      const plan = defaultDemoPlan(ctx.audience);
      const r = await runPacerWorld(plan, demoSimulator(plan), LAB_START, { dataDir: ctx.dataDir, logErrors: false, progress: () => {} });
      await r.store.close();
    }),
  reference: (ctx) => timed(() => runNaiveWorld(ctx.audience)),
  teardown: (ctx) => rmSync(ctx.dataDir, { recursive: true, force: true }),
  meets: ({ ratio }) => ratio <= TARGET_RATIO,
};

export default benchmark;
