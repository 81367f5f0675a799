import { afterEach, describe, expect, it } from 'vitest';
import { eventually } from './await-state.js';
import { busiestSeconds, judge, laggingOnly } from './scale-invariants.js';
import { setUpScaleWorld, type ScaleWorld } from './scale-rig.js';

const RECIPIENTS = 400;
/** What Meta allows the number (the simulator answers 130429 above it)... */
const NUMBER_MPS = 50;
/** ...what Pacer is told the number may send, with headroom for network jitter on a loaded machine... */
const SENDER_MPS = 30;
/** ...and each worker's own ceiling: three of them alone would send 240 a second. */
const WORKER_MPS = 80;

let world: ScaleWorld | null = null;

afterEach(async () => {
  await world?.close();
  world = null;
}, 60_000);

describe('three pacer worker processes on PostgreSQL sending one campaign', () => {
  it("share the number's throughput without exceeding it, and carry on when one is killed", async () => {
    const deadline = Date.now() + 100_000;
    world = await setUpScaleWorld(
      {
        seed: 77,
        recipients: RECIPIENTS,
        workers: 3,
        senderMps: SENDER_MPS,
        workerMps: WORKER_MPS,
        leaseMs: 3000,
        apiDelayMs: () => 5,
        sim: { rateLimits: { throughputMps: NUMBER_MPS } },
      },
      deadline,
    );
    const w = world;
    await Promise.all([0, 1, 2].map((slot) => w.startWorker(slot)));
    const sent = () => w.sim.groundTruth().messages.length;
    expect(await eventually(() => sent() >= RECIPIENTS / 3, deadline, 50)).toBe(true);

    // Every worker got a share before one of them dies.
    const before = w.apis.map((hop) => hop.acknowledged.length);
    expect(
      before.filter((n) => n > 0),
      `accepted sends per worker: ${before.join(', ')}`,
    ).toHaveLength(3);
    await w.killWorker(0);
    // What the dead worker sent counts up to its death: requests it had on the way still arrive.
    const hop0 = w.apis[0]!;
    expect(await eventually(() => hop0.inFlight === 0, deadline, 10)).toBe(true);
    before[0] = hop0.acknowledged.length;
    const drained = await eventually(
      async () => {
        const counts = await w.statusCounts();
        return (counts['queued'] ?? 0) + (counts['leased'] ?? 0) + (counts['sending'] ?? 0) === 0;
      },
      deadline,
      200,
    );
    expect(drained, JSON.stringify(await w.statusCounts())).toBe(true);
    // The survivors finished the campaign, rows the dead worker held included (after its lease).
    const after = w.apis.map((hop) => hop.acknowledged.length);
    expect(after[1]! + after[2]! - before[1]! - before[2]!).toBeGreaterThan(0);
    expect(after[0]).toBe(before[0]);

    const truth = w.sim.groundTruth();
    const busiest = busiestSeconds(truth.messages);
    console.info(`throughput test: busiest seconds ${JSON.stringify(busiest)}; accepted per worker ${after.join(', ')}`);
    // Meta never had to refuse a request for throughput, and no second carried more than it allows.
    expect(truth.syncErrors['130429'] ?? 0).toBe(0);
    expect(busiest[0]?.accepted ?? 0).toBeLessThanOrEqual(NUMBER_MPS);
    // Over the whole run the pace was the sender's, shared, not three workers' own.
    const accepted = truth.messages.map((m) => m.acceptedAt).sort((a, b) => a - b);
    const span = (accepted.at(-1)! - accepted[0]!) / 1000;
    expect(accepted.length / Math.max(span, 1)).toBeLessThanOrEqual(SENDER_MPS * 1.1);

    // The last statuses come in within moments (real time, fast reactions).
    await eventually(async () => (await judge(w)).mismatched.length === 0, Date.now() + 10_000, 200);
    const verdict = await judge(w);
    console.info(`throughput test: ${verdict.summary}`);
    expect(verdict.duplicates).toEqual([]);
    expect(verdict.stuck).toEqual([]);
    // Outcomes as they happened: a row behind the simulator is printed first, then fails the test.
    const { lagging, other } = laggingOnly(verdict.mismatched);
    if (lagging.length > 0) console.warn(`throughput test: outcomes behind the simulator: ${lagging.join('; ')}`);
    expect(other).toEqual([]);
    expect(lagging).toEqual([]);
    // The simulator posted every status it recorded, so the rows above are compared with what Meta said.
    expect(verdict.unposted).toEqual([]);
    // Every recipient got the message, except rows the killed worker left unknown without sending.
    expect(truth.messages.length + verdict.unknown - verdict.unknownSent).toBe(RECIPIENTS);
    expect(verdict.missingWebhooks).toBe(0);
  }, 120_000);
});
