import { startCampaign } from '../../src/app/start-campaign.js';
import { NO_DISPATCHER_HERE } from '../../src/app/work-signal.js';
import { WORLD_NOW } from '../fixtures/campaign-world.js';
import {
  buildPostgresCampaignWorld,
  bulkInsertPostgres,
  createPostgresCampaign,
  dropPostgresCampaignWorld,
  type PostgresCampaignWorld,
} from '../fixtures/campaign-world-postgres.js';
import type { Benchmark } from '../harness/types.js';

const CONTACTS = 100_000;

interface Ctx {
  world: PostgresCampaignWorld;
  runs: number;
}

function cpuSince(start: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1e6;
}

/** Each sample's rows are removed off the clock (and the table vacuumed), so every round writes into the same table. */
async function forget(world: PostgresCampaignWorld, campaignId: number): Promise<void> {
  await world.client.query('DELETE FROM outbox WHERE campaign_id = $1', [campaignId]);
  await world.client.query('VACUUM outbox');
}

const benchmark: Benchmark<Ctx> = {
  name: 'campaign-start-postgres',
  row: 'campaign-start',
  figure:
    'Campaign start over 100,000 contacts with two body parameters and a URL suffix from their attributes, each checked and frozen into its row, PostgreSQL',
  against: 'the same rendered rows by prepared 500-row INSERTs in one transaction, values read into memory first, no checks',
  // Issue 18 sets no number for campaign start, only COPY or set-based writes; 1,000,000 took 27–47 s.
  target: 'set-based writes (issue 18; no figure set)',
  unit: 'rows/s',
  maxRounds: 5,
  maxWarmup: 1,
  async setup({ quick }) {
    return { world: await buildPostgresCampaignWorld(quick ? 5_000 : CONTACTS), runs: 0 };
  },
  async pacer(ctx) {
    const id = await createPostgresCampaign(ctx.world, `start-${ctx.runs++}`);
    const cpu = process.cpuUsage();
    const start = performance.now();
    const r = await startCampaign(ctx.world.store, id, { phoneNumberId: ctx.world.phoneNumberId }, WORLD_NOW, NO_DISPATCHER_HERE);
    const seconds = (performance.now() - start) / 1000;
    const cpuSeconds = cpuSince(cpu);
    if (r.inserted !== ctx.world.contacts) throw new Error(`campaign-start-postgres: ${r.inserted} rows of ${ctx.world.contacts}`);
    await forget(ctx.world, id);
    return { value: r.inserted / seconds, extras: { seconds, cpuSeconds } };
  },
  async reference(ctx) {
    const id = await createPostgresCampaign(ctx.world, `bulk-${ctx.runs++}`);
    const cpu = process.cpuUsage();
    const start = performance.now();
    const inserted = await bulkInsertPostgres(ctx.world, id);
    const seconds = (performance.now() - start) / 1000;
    const cpuSeconds = cpuSince(cpu);
    if (inserted !== ctx.world.contacts) throw new Error(`campaign-start-postgres reference: ${inserted} rows of ${ctx.world.contacts}`);
    await forget(ctx.world, id);
    return { value: inserted / seconds, extras: { seconds, cpuSeconds } };
  },
  teardown: (ctx) => dropPostgresCampaignWorld(ctx.world),
};

export default benchmark;
