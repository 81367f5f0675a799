import { rmSync } from 'node:fs';
import { buildCampaignWorld, closeCampaignWorld, createCampaign, WORLD_NOW, type CampaignWorld } from '../fixtures/campaign-world.js';
import { percentile } from '../harness/stats.js';
import type { Benchmark, Sample } from '../harness/types.js';

const TARGET_P99_MS = 50;
/** Dashboard reads per sample; the sample's value is their p99 (with 20, their slowest). */
const READS = 20;
/** Message events behind the breaker's read. */
const EVENTS = 20_000;

interface Ctx {
  world: CampaignWorld;
  campaignId: number;
  rows: number;
}

/**
 * One campaign over every contact, in the mix a finished-ish campaign has: most rows done with a
 * delivery outcome, some accepted and waiting for webhooks, some failed, queued, held or skipped.
 */
function fillOutbox(world: CampaignWorld, campaignId: number): void {
  const intent = JSON.stringify({ phoneNumberId: world.phoneNumberId, template: { name: 'spring_sale', language: 'en_US' } });
  world.db.transaction(() => {
    world.db
      .prepare(
        `INSERT INTO outbox (campaign_id, contact_id, sender_id, category, intent, phone_number_id, status, outcome, attempts, wamid, next_attempt_at, created_at, updated_at)
      SELECT ?, id, ?, 'marketing', ?, ?,
        CASE WHEN id % 100 < 20 THEN 'sent' WHEN id % 100 < 92 THEN 'done' WHEN id % 100 < 97 THEN 'queued' ELSE 'held' END,
        CASE WHEN id % 100 < 20 THEN 'accepted' WHEN id % 100 < 60 THEN 'delivered' WHEN id % 100 < 80 THEN 'read'
             WHEN id % 100 < 90 THEN 'failed' WHEN id % 100 < 92 THEN 'skipped' ELSE NULL END,
        1, CASE WHEN id % 100 < 90 THEN 'wamid.' || id END, ?, ?, ? + id
      FROM contacts`,
      )
      .run(campaignId, world.senderId, intent, world.phoneNumberId, WORLD_NOW, WORLD_NOW, WORLD_NOW);
    // The newest events, as the status webhooks of the last minutes left them.
    world.db
      .prepare(
        `INSERT INTO message_events (outbox_id, wamid, status, error_code, at, recorded_at)
      SELECT id, wamid, CASE WHEN id % 10 = 0 THEN 'failed' ELSE 'delivered' END, CASE WHEN id % 10 = 0 THEN 131049 END, ?, ?
      FROM outbox WHERE campaign_id = ? AND wamid IS NOT NULL ORDER BY id DESC LIMIT ?`,
      )
      .run(WORLD_NOW, WORLD_NOW, campaignId, EVENTS);
  })();
  world.db.exec('ANALYZE');
}

async function timedReads(read: () => Promise<unknown>): Promise<Sample> {
  const ms: number[] = [];
  for (let i = 0; i < READS; i++) {
    const start = performance.now();
    await read();
    ms.push(performance.now() - start);
  }
  return { value: percentile(ms, 99), extras: { p50Ms: percentile(ms, 50) } };
}

const benchmark: Benchmark<Ctx> = {
  name: 'campaign-stats',
  row: 'dashboard-stats',
  figure:
    'Dashboard campaign stats (counters by status and outcome, open-rows check, first read of recent outcomes by the breaker) for one campaign of 1,000,000 outbox rows, SQLite; p99 of 20 reads per sample',
  against: "SELECT COUNT(*) of the same campaign's rows",
  target: `p99 ≤ ${TARGET_P99_MS} ms`,
  unit: 'ms',
  higherIsBetter: false,
  maxRounds: 5,
  maxWarmup: 0,
  async setup({ quick }) {
    const world = await buildCampaignWorld(quick ? 20_000 : 1_000_000);
    const campaignId = await createCampaign(world, 'stats');
    fillOutbox(world, campaignId);
    return { world, campaignId, rows: world.contacts };
  },
  async pacer(ctx) {
    const { store } = ctx.world;
    const sample = await timedReads(() =>
      Promise.all([
        store.campaignCounters(ctx.campaignId),
        store.campaignOpenRows(ctx.campaignId, WORLD_NOW, 60_000),
        // The breaker's costliest read: its first after a restart, every recent outcome at once.
        store.campaignOutcomesAfter(-1),
      ]),
    );
    const counters = await store.campaignCounters(ctx.campaignId);
    if (counters.total !== ctx.rows) throw new Error(`campaign-stats: counted ${counters.total} of ${ctx.rows} rows`);
    return sample;
  },
  reference: (ctx) =>
    timedReads(async () => ctx.world.db.prepare('SELECT COUNT(*) FROM outbox WHERE campaign_id = ?').pluck().get(ctx.campaignId)),
  async teardown(ctx) {
    await closeCampaignWorld(ctx.world);
    rmSync(ctx.world.dir, { recursive: true, force: true });
  },
  meets: ({ pacer }) => pacer.median <= TARGET_P99_MS,
};

export default benchmark;
