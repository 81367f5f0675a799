import { rmSync } from 'node:fs';
import { buildCampaignWorld, closeCampaignWorld, createCampaign, WORLD_NOW, type CampaignWorld } from '../fixtures/campaign-world.js';
import { percentile } from '../harness/stats.js';
import type { Benchmark, Sample } from '../harness/types.js';

const TARGET_P99_MS = 50;
/** Pages read per sample, at depths spread over the whole campaign; the sample's value is their p99. */
const READS = 20;
const PAGE = 500;

interface Ctx {
  world: CampaignWorld;
  campaignId: number;
  /** Row ids to page on from: the first page, then evenly deeper down to the last one. */
  depths: number[];
}

/**
 * One campaign over every contact, as a finished-ish one looks: most rows done, some queued or held
 * (3 %), one decision for every tenth row (the one a recipient's latest decision comes from).
 */
function fillOutbox(world: CampaignWorld, campaignId: number): { first: number; last: number } {
  const intent = JSON.stringify({ phoneNumberId: world.phoneNumberId, template: { name: 'spring_sale', language: 'en_US' } });
  world.db.transaction(() => {
    world.db
      .prepare(
        `INSERT INTO outbox (campaign_id, contact_id, sender_id, category, intent, phone_number_id, status, outcome, attempts, last_error_code, next_attempt_at,
        created_at, updated_at)
      SELECT ?, id, ?, 'marketing', ?, ?,
        CASE WHEN id % 100 < 92 THEN 'done' WHEN id % 100 < 97 THEN 'queued' ELSE 'held' END,
        CASE WHEN id % 100 < 60 THEN 'delivered' WHEN id % 100 < 80 THEN 'read' WHEN id % 100 < 92 THEN 'failed' ELSE NULL END,
        1, CASE WHEN id % 100 >= 80 AND id % 100 < 92 THEN 131049 END, ?, ?, ?
      FROM contacts`,
      )
      .run(campaignId, world.senderId, intent, world.phoneNumberId, WORLD_NOW, WORLD_NOW, WORLD_NOW);
    world.db
      .prepare(
        `INSERT INTO decisions (outbox_id, contact_id, kind, reason, explanation, until, at)
      SELECT id, contact_id, 'defer', 'frequency_cap', 'the frequency cap', ?, ? FROM outbox WHERE campaign_id = ? AND id % 10 = 0`,
      )
      .run(WORLD_NOW + 86_400_000, WORLD_NOW, campaignId);
  })();
  world.db.exec('ANALYZE');
  const range = world.db.prepare('SELECT MIN(id) AS first, MAX(id) AS last FROM outbox WHERE campaign_id = ?').get(campaignId) as {
    first: number;
    last: number;
  };
  return range;
}

async function timedReads(depths: readonly number[], read: (afterId: number, i: number) => Promise<unknown>): Promise<Sample> {
  const ms: number[] = [];
  for (const [i, afterId] of depths.entries()) {
    const start = performance.now();
    await read(afterId, i);
    ms.push(performance.now() - start);
  }
  return { value: percentile(ms, 99), extras: { p50Ms: percentile(ms, 50) } };
}

const benchmark: Benchmark<Ctx> = {
  name: 'campaign-recipients',
  row: 'campaign-recipients',
  figure:
    "A page of 500 of a campaign's recipients (GET /campaigns/{id}/recipients: contact keys and latest decision), at any depth of 1,000,000 outbox rows, every other page filtered to held rows, SQLite; p99 of 20 pages per sample",
  against: 'the bare keyset read of the same pages (outbox rows alone)',
  target: `p99 ≤ ${TARGET_P99_MS} ms`,
  unit: 'ms',
  higherIsBetter: false,
  maxRounds: 5,
  maxWarmup: 1,
  async setup({ quick }) {
    const world = await buildCampaignWorld(quick ? 20_000 : 1_000_000);
    const campaignId = await createCampaign(world, 'recipients');
    const { first, last } = fillOutbox(world, campaignId);
    const depths = Array.from({ length: READS }, (_, i) => (i === 0 ? 0 : first + Math.floor(((last - first - PAGE) * i) / (READS - 1))));
    return { world, campaignId, depths };
  },
  async pacer(ctx) {
    const { store } = ctx.world;
    const sample = await timedReads(ctx.depths, async (afterId, i) => {
      const page = await store.campaignRecipients({
        campaignId: ctx.campaignId,
        afterId,
        limit: PAGE + 1,
        ...(i % 2 === 1 ? { status: 'held' as const } : {}),
      });
      if (page.length === 0) throw new Error(`campaign-recipients: an empty page after row ${afterId}`);
    });
    return sample;
  },
  reference: (ctx) => {
    const plain = ctx.world.db.prepare('SELECT * FROM outbox WHERE campaign_id = ? AND id > ? ORDER BY id LIMIT ?');
    const held = ctx.world.db.prepare(`SELECT * FROM outbox WHERE campaign_id = ? AND id > ? AND status = 'held' ORDER BY id LIMIT ?`);
    return timedReads(ctx.depths, (afterId, i) => Promise.resolve((i % 2 === 1 ? held : plain).all(ctx.campaignId, afterId, PAGE + 1)));
  },
  async teardown(ctx) {
    await closeCampaignWorld(ctx.world);
    rmSync(ctx.world.dir, { recursive: true, force: true });
  },
  meets: ({ pacer }) => pacer.median <= TARGET_P99_MS,
};

export default benchmark;
