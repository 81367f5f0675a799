import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DEMO_AUDIENCE } from '../../src/main/demo/demo-plan.js';
import { runDemo } from '../../src/main/demo/run-demo.js';
import { runNaiveWorld } from '../fixtures/naive-world.js';
import type { Benchmark } from '../harness/types.js';

const TARGET_SECONDS = 60;

interface Ctx {
  audience: number;
  outDir: string;
}

const seconds = async (run: () => Promise<unknown>) => {
  const began = performance.now();
  await run();
  return { value: (performance.now() - began) / 1000 };
};

/** The demo's own wall time, as `npm run demo` spends it (without tsx's start): what its minute is judged on. */
const benchmark: Benchmark<Ctx> = {
  name: 'demo-run',
  row: 'demo-worlds',
  figure: `Seconds for the whole demo at its default audience (${DEMO_AUDIENCE.toLocaleString('en-US')} contacts): four worlds in worker threads, one per core, as \`pacer demo\` runs them`,
  against: 'the naive world alone at the same audience, in this process: simulator and HTTP work that no sender avoids',
  target: `≤ ${TARGET_SECONDS} s on 2 cores`,
  unit: 's',
  higherIsBetter: false,
  maxRounds: 2,
  maxWarmup: 0,
  setup: ({ quick }) => ({ audience: quick ? 300 : DEMO_AUDIENCE, outDir: path.join(tmpdir(), `pacer-bench-demo-run-${process.pid}`) }),
  pacer: (ctx) => seconds(() => runDemo({ audience: ctx.audience, outDir: ctx.outDir, out: () => undefined })),
  reference: (ctx) => seconds(() => runNaiveWorld(ctx.audience)),
  teardown: (ctx) => rmSync(ctx.outDir, { recursive: true, force: true }),
  meets: ({ pacer }) => pacer.median <= TARGET_SECONDS,
};

export default benchmark;
