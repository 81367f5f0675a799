import { rmSync } from 'node:fs';
import { buildCampaignWorld, closeCampaignWorld } from '../fixtures/campaign-world.js';
import { childScript } from '../fixtures/compiled.js';
import { runChild } from '../fixtures/run-child.js';
import type { Benchmark, Sample } from '../harness/types.js';

const MAX_SECONDS = 10;
const MAX_RSS_MB = 250;

interface Ctx {
  /** The child script: compiled, as production runs, in full runs; through tsx in quick ones. */
  script: string;
  dir: string;
  contacts: number;
}

interface ChildResult {
  rows: number;
  seconds: number;
  cpuSeconds: number;
  maxRssMb: number;
}

async function startInChild(ctx: Ctx, mode: 'pacer' | 'bulk'): Promise<Sample> {
  const r = await runChild<ChildResult>(ctx.script, [mode, ctx.dir]);
  if (r.rows !== ctx.contacts) throw new Error(`campaign-start-1m ${mode}: ${r.rows} rows of ${ctx.contacts} contacts`);
  return { value: r.rows / r.seconds, extras: { seconds: r.seconds, cpuSeconds: r.cpuSeconds, maxRssMb: r.maxRssMb } };
}

const benchmark: Benchmark<Ctx> = {
  name: 'campaign-start-1m',
  row: 'campaign-start',
  figure:
    'Campaign start over 1,000,000 contacts opted in to marketing, SQLite, in a process of its own running compiled JavaScript (peak RSS of that process)',
  against: 'the same rows by prepared 500-row INSERTs in one transaction, in a process of its own',
  target: `1,000,000 in ≤ ${MAX_SECONDS} s with ≤ ${MAX_RSS_MB} MB RSS`,
  unit: 'rows/s',
  // A sample is a million rows: three of them say enough.
  maxRounds: 3,
  maxWarmup: 0,
  async setup({ quick }) {
    const contacts = quick ? 20_000 : 1_000_000;
    const world = await buildCampaignWorld(contacts);
    await closeCampaignWorld(world);
    return { script: await childScript('campaign-start-process', quick), dir: world.dir, contacts };
  },
  pacer: (ctx) => startInChild(ctx, 'pacer'),
  reference: (ctx) => startInChild(ctx, 'bulk'),
  teardown: (ctx) => rmSync(ctx.dir, { recursive: true, force: true }),
  meets: ({ pacer, extras }) => pacer.median >= 1_000_000 / MAX_SECONDS && (extras.pacer['maxRssMb'] ?? Infinity) <= MAX_RSS_MB,
};

export default benchmark;
