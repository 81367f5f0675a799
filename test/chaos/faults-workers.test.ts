import { afterEach, describe, expect, it } from 'vitest';
import type { Fault } from '../../src/adapters/simulator/index.js';
import { seededRandom } from '../../src/adapters/simulator/prng.js';
import { eventually } from '../await-state.js';
import { stallReport } from '../scale-diagnostics.js';
import { judge, laggingOnly, outcomesSettled } from '../scale-invariants.js';
import { setUpScaleWorld, type ScaleWorld } from '../scale-rig.js';

const SEED = 5150;
const RECIPIENTS = 4000;
const WORKERS = 3;
/** Rows retried later than this after the run are fine (scheduled); nearer ones must have gone. */
const HORIZON_MS = 30_000;

let world: ScaleWorld | null = null;

afterEach(async () => {
  await world?.close();
  world = null;
}, 60_000);

type Chaos =
  | { kind: 'api'; fault: Fault; options: { count?: number; forMs?: number } }
  | { kind: 'timeouts'; count: number }
  | { kind: 'drop_connections' };

/** Each kind of trouble at least once, in a seeded order. */
function schedule(random: () => number): Chaos[] {
  const all: Chaos[] = [
    { kind: 'api', fault: { kind: 'http_5xx', status: 503 }, options: { count: 30 } },
    { kind: 'api', fault: { kind: 'http_5xx', status: 500 }, options: { count: 30 } },
    { kind: 'api', fault: { kind: 'connection_reset' }, options: { count: 10 } },
    { kind: 'api', fault: { kind: 'non_json' }, options: { count: 10 } },
    { kind: 'api', fault: { kind: 'error_code', code: 131016 }, options: { forMs: 1500 } },
    { kind: 'api', fault: { kind: 'error_code', code: 130429 }, options: { forMs: 1500 } },
    { kind: 'timeouts', count: 5 },
    { kind: 'drop_connections' },
    { kind: 'drop_connections' },
  ];
  for (let i = all.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [all[i], all[j]] = [all[j] as Chaos, all[i] as Chaos];
  }
  return all;
}

describe('three pacer workers on PostgreSQL while the Cloud API and the database misbehave', () => {
  it('backs off, recovers by itself, and still sends nobody a message twice', async () => {
    const started = Date.now();
    const deadline = started + 180_000;
    world = await setUpScaleWorld(
      {
        seed: SEED,
        recipients: RECIPIENTS,
        workers: WORKERS,
        senderMps: 300,
        workerMps: 300,
        leaseMs: 5000,
        direct: true,
        sim: { reactions: { readDelayMs: { min: 3_600_000, max: 7_200_000 } }, webhooks: { batchRate: 0.8, maxBatch: 25 } },
      },
      deadline,
    );
    const w = world;
    await Promise.all(Array.from({ length: WORKERS }, (_, slot) => w.startWorker(slot)));
    const random = seededRandom(SEED);
    const done: string[] = [];
    let dropped = 0;
    for (const chaos of schedule(random)) {
      await new Promise((resolve) => setTimeout(resolve, 1500 + random() * 1500));
      switch (chaos.kind) {
        case 'api':
          w.sim.faults.inject(chaos.fault, chaos.options);
          done.push(chaos.fault.kind === 'error_code' ? String(chaos.fault.code) : chaos.fault.kind);
          break;
        case 'timeouts':
          // Requests held without an answer; their connections drop a moment later.
          w.sim.faults.inject({ kind: 'timeout' }, { count: chaos.count });
          await w.sim.faults.whenHeld(chaos.count);
          await new Promise((resolve) => setTimeout(resolve, 500));
          w.sim.faults.releaseHeld();
          done.push('timeout');
          break;
        case 'drop_connections': {
          // Only this run's processes, found by application_name; the server itself stays up.
          // Two steps: pick the backends first, then end exactly those (a single WHERE gives no
          // order of evaluation, and other people's connections share this server).
          const names = w.pids().flatMap((pid) => [`pacer serve ${pid}`, `pacer worker ${pid}`]);
          const ours = (await w.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE application_name = ANY($1)', [names])).map(
            (r) => r.pid,
          );
          for (const pid of ours) await w.query('SELECT pg_terminate_backend($1)', [pid]);
          dropped += ours.length;
          done.push(`dropped ${ours.length} connections`);
          break;
        }
      }
    }
    const afterChaos = w.sim.groundTruth().messages.length;
    w.sim.faults.clear();
    expect(dropped).toBeGreaterThan(0);

    // Everything due within the horizon goes out; nothing stays mid-send.
    const pending = async () =>
      Number(
        (
          await w.query<{ n: string }>(
            `SELECT COUNT(*) AS n FROM outbox WHERE campaign_id = $1 AND (status IN ('leased', 'sending') OR (status = 'queued' AND next_attempt_at <= $2))`,
            [w.campaignId, Date.now() + HORIZON_MS],
          )
        )[0]?.n,
      );
    const drained = await eventually(async () => (await pending()) === 0, deadline, 500);
    const drainedIn = Math.round((Date.now() - started) / 1000);
    // Taken at the deadline, before anything below gives the workers more time.
    const stall = drained ? null : await stallReport(w);
    if (stall !== null) console.error(`faults-workers: not drained by the deadline\n${stall}`);
    await outcomesSettled(w, Date.now() + 60_000, 2000);
    const verdict = await judge(w);
    const truth = w.sim.groundTruth();
    console.info(
      `faults-workers: ${done.join(', ')}; drained ${drained} in ${drainedIn} s, settled in ${Math.round((Date.now() - started) / 1000)} s; ${verdict.summary}`,
    );

    expect(drained, stall ?? '').toBe(true);
    // Pacer recovered without help: sending carried on after the last fault.
    expect(truth.messages.length).toBeGreaterThan(afterChaos);
    expect(verdict.duplicates).toEqual([]);
    expect(verdict.stuck).toEqual([]);
    // Outcomes as they happened; a lagging `accepted` is reported, and there must be none.
    const { lagging, other } = laggingOnly(verdict.mismatched);
    if (lagging.length > 0) console.warn(`faults-workers: outcomes behind the simulator: ${lagging.join('; ')}`);
    expect(other).toEqual([]);
    expect(lagging).toEqual([]);
    expect(verdict.unknownSent).toBe(0);
    expect(verdict.missingWebhooks).toBe(0);
    expect(verdict.unprocessedWebhooks).toBe(0);
    // Every accepted message is recorded on its row as sent; the other rows are scheduled for a
    // retry, unknown (reported above), or failed once their retries ran out.
    const counts = await w.statusCounts();
    expect(counts['sent'] ?? 0).toBe(truth.messages.length);
    expect((counts['sent'] ?? 0) + (counts['queued'] ?? 0) + (counts['unknown'] ?? 0) + (counts['done'] ?? 0)).toBe(RECIPIENTS);
  });
});
