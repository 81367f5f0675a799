import { NO_DISPATCHER_HERE } from '../../src/app/work-signal.js';
import { rmSync } from 'node:fs';
import { startCampaign } from '../../src/app/start-campaign.js';
import {
  allContactIds,
  buildCampaignWorld,
  bulkInsertOutbox,
  closeCampaignWorld,
  createCampaign,
  WORLD_NOW,
  type CampaignWorld,
} from '../fixtures/campaign-world.js';
import type { Benchmark } from '../harness/types.js';

interface Ctx {
  world: CampaignWorld;
  ids: number[];
  runs: number;
}

/** Each sample's rows are removed off the clock, so every round inserts into a table of the same size. */
function forget(world: CampaignWorld, campaignId: number): void {
  world.db.prepare('DELETE FROM outbox WHERE campaign_id = ?').run(campaignId);
}

/** User + system CPU of this process since `start`: on a shared machine it says more than the wall clock. */
function cpuSince(start: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1e6;
}

const benchmark: Benchmark<Ctx> = {
  name: 'campaign-start',
  row: 'campaign-start',
  figure: 'Campaign start: recipients materialised per second, 100,000 contacts opted in to marketing, segment on consent, SQLite',
  against: 'one transaction of prepared 500-row INSERTs of the same rows from ids already in memory',
  target: '100,000 in ≤ 1 s',
  unit: 'rows/s',
  async setup({ quick }) {
    const world = await buildCampaignWorld(quick ? 5_000 : 100_000);
    return { world, ids: allContactIds(world), runs: 0 };
  },
  async pacer(ctx) {
    const id = await createCampaign(ctx.world, `start-${ctx.runs++}`);
    const cpu = process.cpuUsage();
    const start = performance.now();
    const result = await startCampaign(ctx.world.store, id, { phoneNumberId: ctx.world.phoneNumberId }, WORLD_NOW, NO_DISPATCHER_HERE);
    const seconds = (performance.now() - start) / 1000;
    const cpuSeconds = cpuSince(cpu);
    if (result.inserted !== ctx.world.contacts)
      throw new Error(`campaign-start: ${result.inserted} rows of ${ctx.world.contacts} contacts`);
    forget(ctx.world, id);
    return { value: result.inserted / seconds, extras: { seconds, cpuSeconds } };
  },
  async reference(ctx) {
    const id = await createCampaign(ctx.world, `bulk-${ctx.runs++}`);
    const cpu = process.cpuUsage();
    const start = performance.now();
    const inserted = bulkInsertOutbox(ctx.world, id, ctx.ids);
    const seconds = (performance.now() - start) / 1000;
    const cpuSeconds = cpuSince(cpu);
    if (inserted !== ctx.ids.length) throw new Error(`campaign-start reference: ${inserted} rows of ${ctx.ids.length}`);
    forget(ctx.world, id);
    return { value: inserted / seconds, extras: { seconds, cpuSeconds } };
  },
  async teardown(ctx) {
    await closeCampaignWorld(ctx.world);
    rmSync(ctx.world.dir, { recursive: true, force: true });
  },
  meets: ({ pacer }) => pacer.median >= 100_000,
};

export default benchmark;
