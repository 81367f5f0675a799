import { afterEach, describe, expect, it } from 'vitest';
import { seededRandom } from '../../src/adapters/simulator/prng.js';
import { eventually } from '../await-state.js';
import { stallReport } from '../scale-diagnostics.js';
import { judge, laggingOnly, outcomesSettled } from '../scale-invariants.js';
import { setUpScaleWorld, type ScaleWorld } from '../scale-rig.js';

const SEED = 9091;
/** CHAOS_RECIPIENTS makes a shorter run while working on this test. */
const RECIPIENTS = Number(process.env.CHAOS_RECIPIENTS ?? 20_000);
const WORKERS = 3;
const LEASE_MS = 5000;
/**
 * A guard against a hang, not a speed target (throughput is the benchmarks' business): on a busy
 * two-core machine three workers, the edge, PostgreSQL and the simulator share the cores, and the
 * campaign has drained in 250-280 s there.
 */
const DRAIN_DEADLINE_MS = 360_000;

let world: ScaleWorld | null = null;

afterEach(async () => {
  await world?.close();
  world = null;
}, 60_000);

describe('three pacer workers on PostgreSQL, one SIGKILLed every few seconds and started again', () => {
  it('sends a 20,000-recipient campaign with nobody messaged twice and nothing lost', async () => {
    const started = Date.now();
    const deadline = started + DRAIN_DEADLINE_MS;
    const network = seededRandom(SEED + 1);
    world = await setUpScaleWorld(
      {
        seed: SEED,
        recipients: RECIPIENTS,
        workers: WORKERS,
        senderMps: 400,
        workerMps: 400,
        leaseMs: LEASE_MS,
        // Meta answers in tens of milliseconds: kills land while requests are in flight.
        apiDelayMs: () => 10 + network() * 60,
        sim: {
          rateLimits: { throughputMps: 500 },
          // Reads come after the run; sent and delivered in milliseconds, mostly batched as Meta does under load.
          reactions: { readDelayMs: { min: 3_600_000, max: 7_200_000 } },
          webhooks: { batchRate: 0.8, maxBatch: 25 },
        },
      },
      deadline,
    );
    const w = world;
    await Promise.all(Array.from({ length: WORKERS }, (_, slot) => w.startWorker(slot)));
    const random = seededRandom(SEED);
    const open = async () => {
      const c = await w.statusCounts();
      return (c['queued'] ?? 0) + (c['leased'] ?? 0) + (c['sending'] ?? 0);
    };

    // Kill a random worker every 2-5 s while rows are still queued; start it again at once.
    const kills: string[] = [];
    while (Date.now() < deadline - 60_000 && ((await w.statusCounts())['queued'] ?? 0) > 0) {
      await new Promise((resolve) => setTimeout(resolve, 2000 + random() * 3000));
      const slot = Math.floor(random() * WORKERS);
      const counts = await w.statusCounts();
      await w.killWorker(slot);
      kills.push(`worker ${slot} at ${Math.round((Date.now() - started) / 1000)} s (${counts['sending'] ?? 0} sending)`);
      await w.startWorker(slot);
    }
    expect(kills.length).toBeGreaterThanOrEqual(3);
    // Rows the dead held come back after their lease; the survivors finish.
    const drained = await eventually(async () => (await open()) === 0, deadline, 500);
    const drainedIn = Math.round((Date.now() - started) / 1000);
    // Taken at the deadline, before anything below gives the workers more time.
    const stall = drained ? null : await stallReport(w);
    if (stall !== null) console.error(`crash-workers: not drained by the deadline\n${stall}`);
    // The edge applies the last statuses (tens of thousands) within moments; look every few seconds.
    await outcomesSettled(w, Date.now() + 60_000, 3000);
    const verdict = await judge(w);
    const truth = w.sim.groundTruth();
    const perTen = new Map<number, number>();
    for (const m of truth.messages)
      perTen.set(Math.floor((m.acceptedAt - started) / 10_000), (perTen.get(Math.floor((m.acceptedAt - started) / 10_000)) ?? 0) + 1);
    console.info(`crash-workers: accepted per 10 s ${JSON.stringify([...perTen].sort((a, b) => a[0] - b[0]).map(([, n]) => n))}`);
    console.info(
      `crash-workers: ${kills.length} kills (${kills.join('; ')}); drained ${drained} in ${drainedIn} s, settled in ${Math.round((Date.now() - started) / 1000)} s; ${verdict.summary}`,
    );

    expect(drained, stall ?? '').toBe(true);
    expect(verdict.duplicates).toEqual([]);
    expect(verdict.stuck).toEqual([]);
    // Outcomes as they happened: a row behind the simulator is printed first, then fails the test.
    const { lagging, other } = laggingOnly(verdict.mismatched);
    if (lagging.length > 0) console.warn(`crash-workers: outcomes behind the simulator: ${lagging.join('; ')}`);
    expect(other).toEqual([]);
    expect(lagging).toEqual([]);
    // The simulator posted every status it recorded, so the rows above are compared with what Meta said.
    expect(verdict.unposted).toEqual([]);
    // A row left unknown never reached Meta (one that did is settled by its status webhook); every
    // other recipient got the message.
    expect(verdict.unknownSent).toBe(0);
    expect(truth.messages.length + verdict.unknown).toBe(RECIPIENTS);
    expect(verdict.missingWebhooks).toBe(0);
    expect(verdict.unprocessedWebhooks).toBe(0);
    expect(truth.syncErrors['130429'] ?? 0).toBe(0);
  });
});
