import { rmSync } from 'node:fs';
import { buildCampaignWorld, closeCampaignWorld } from '../fixtures/campaign-world.js';
import { childScript } from '../fixtures/compiled.js';
import { runChild } from '../fixtures/run-child.js';
import type { Benchmark, Sample } from '../harness/types.js';

const MAX_SECONDS = 10;
const MAX_RSS_MB = 250;

interface Ctx {
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

async function startInChild(ctx: Ctx, mode: 'pacer-personalised' | 'bulk-personalised'): Promise<Sample> {
  const r = await runChild<ChildResult>(ctx.script, [mode, ctx.dir]);
  if (r.rows !== ctx.contacts) throw new Error(`campaign-start-1m-personalised ${mode}: ${r.rows} rows of ${ctx.contacts} contacts`);
  return { value: r.rows / r.seconds, extras: { seconds: r.seconds, cpuSeconds: r.cpuSeconds, maxRssMb: r.maxRssMb } };
}

/** campaign-start-1m with every row's values rendered from its contact's attributes and frozen into it. */
const benchmark: Benchmark<Ctx> = {
  name: 'campaign-start-1m-personalised',
  row: 'campaign-start',
  figure:
    'Campaign start over 1,000,000 contacts with two body parameters and a URL suffix from their attributes, each checked and frozen into its row, SQLite, in a process of its own (peak RSS)',
  against: 'the same rendered rows by prepared 500-row INSERTs in one transaction, values read into memory first, no checks',
  target: `1,000,000 in ≤ ${MAX_SECONDS} s with ≤ ${MAX_RSS_MB} MB RSS`,
  unit: 'rows/s',
  maxRounds: 3,
  maxWarmup: 0,
  async setup({ quick }) {
    const contacts = quick ? 20_000 : 1_000_000;
    const world = await buildCampaignWorld(contacts, undefined, true);
    await closeCampaignWorld(world);
    return { script: await childScript('campaign-start-process', quick), dir: world.dir, contacts };
  },
  pacer: (ctx) => startInChild(ctx, 'pacer-personalised'),
  reference: (ctx) => startInChild(ctx, 'bulk-personalised'),
  teardown: (ctx) => rmSync(ctx.dir, { recursive: true, force: true }),
  meets: ({ pacer, extras }) => pacer.median >= 1_000_000 / MAX_SECONDS && (extras.pacer['maxRssMb'] ?? Infinity) <= MAX_RSS_MB,
};

export default benchmark;
