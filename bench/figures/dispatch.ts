import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createCloudApiClient } from '../../src/adapters/cloud-api/cloud-api-client.js';
import { openStore } from '../../src/adapters/storage/open-store.js';
import { Dispatcher } from '../../src/app/dispatcher.js';
import { DEFAULT_POLICY } from '../../src/core/policy.js';
import { DAY, MINUTE } from '../../src/core/time.js';
import type { CloudApi } from '../../src/ports/cloud-api.js';
import { systemClock } from '../../src/ports/clock.js';
import type { Store } from '../../src/ports/store.js';
import {
  API_VERSION,
  benchRandom,
  queueSends,
  seedWorld,
  startSimulatorProcess,
  UTILITY_TEMPLATE,
  type SimulatorProcess,
  type World,
} from '../fixtures/dispatch-rig.js';
import type { Benchmark } from '../harness/types.js';

/** The engine's client concurrency and its batch at Meta's highest per-number throughput (1,000/s). */
const CONCURRENCY = 32;
const BATCH = 1_000;
/** Samples before a person is messaged again. */
const SPREAD = 12;

interface Ctx {
  dir: string;
  sim: SimulatorProcess;
  store: Store;
  world: World;
  dispatcher: Dispatcher;
  pacerApi: CloudApi;
  rawApi: CloudApi;
  sends: number;
  queued: number;
  rounds: number;
  nextRaw: number;
}

/** CPU microseconds (user + system) this process spent per operation, and the share of one core that makes at 1,000 ops/s. */
function cpuExtras(before: NodeJS.CpuUsage, ops: number): Record<string, number> {
  const used = process.cpuUsage(before);
  const usPerSend = (used.user + used.system) / ops;
  return { cpuUsPerSend: usPerSend, coreAt1000PerSecond: (usPerSend * 1_000) / 1e6 };
}

const benchmark: Benchmark<Ctx> = {
  name: 'dispatch',
  row: 'sends',
  figure:
    'Sends per second through the dispatcher (claim, decide, durable outbox updates, Cloud API client) to the simulator in another process on loopback; one sender number, SQLite, batches of 1,000, 32 in flight; CPU of the Pacer process only',
  against: 'the same number of sends through the Cloud API client alone, 32 in flight, same simulator',
  target: '≥ 1,000/s and ≥ 80 % of raw; < 50 % of one core at 1,000/s',
  unit: 'sends/s',
  async setup({ quick }) {
    const sends = quick ? 1_000 : 3_000;
    // decide spaces messages to one person by seconds (pair rate): each sample sends to people the
    // last several samples did not, so every claimed row is a send, as in a campaign.
    const sim = await startSimulatorProcess(sends * SPREAD);
    const dir = mkdtempSync(path.join(tmpdir(), 'pacer-bench-dispatch-'));
    const store = openStore({ dataDir: dir });
    await store.migrate();
    const world = await seedWorld(store, sim, DEFAULT_POLICY, systemClock.now(), 1_000);
    const api = (): CloudApi =>
      createCloudApiClient({
        baseUrl: sim.url,
        apiVersion: API_VERSION,
        phoneNumberId: sim.phoneNumberId,
        accessToken: sim.accessToken,
        capCodes: DEFAULT_POLICY.capCodes,
        maxConcurrency: CONCURRENCY,
      });
    const pacerApi = api();
    // Pacing lifted (mps far above the batch): back-to-back ticks measure what the path can carry.
    const dispatcher = new Dispatcher(
      { store, api: pacerApi, policy: DEFAULT_POLICY, clock: systemClock, random: benchRandom() },
      { owner: 'bench', phoneNumberId: sim.phoneNumberId, mps: 1e9, leaseMs: MINUTE, batchSize: BATCH },
    );
    return { dir, sim, store, world, dispatcher, pacerApi, rawApi: api(), sends, queued: 0, rounds: 0, nextRaw: 0 };
  },
  async prepare(ctx) {
    await ctx.sim.advance(DAY);
    if (ctx.queued === 0) {
      const round = ctx.rounds++;
      ctx.queued = await queueSends(ctx.store, ctx.world, `bench-${round}`, (round % SPREAD) * ctx.sends, ctx.sends, systemClock.now());
    }
  },
  async pacer(ctx) {
    const before = process.cpuUsage();
    let sent = 0;
    let claimed = 0;
    for (;;) {
      const r = await ctx.dispatcher.tick();
      if (r.claimed === 0) break;
      claimed += r.claimed;
      sent += r.sent;
    }
    if (claimed !== ctx.queued || sent < claimed * 0.95)
      throw new Error(`dispatch: ${sent} sent of ${claimed} claimed, ${ctx.queued} queued`);
    ctx.queued = 0;
    return { ops: sent, extras: cpuExtras(before, sent) };
  },
  async reference(ctx) {
    const before = process.cpuUsage();
    let next = 0;
    let accepted = 0;
    const worker = async (): Promise<void> => {
      while (next < ctx.sends) {
        const i = next++;
        const r = await ctx.rawApi.send({
          type: 'template',
          endpoint: 'messages',
          to: { kind: 'phone', phone: ctx.sim.phones[i % ctx.sim.phones.length]! },
          messageId: `raw-${ctx.nextRaw + i}`,
          template: { name: UTILITY_TEMPLATE, language: 'en_US' },
        });
        if (r.kind === 'transport_failure') throw new Error(`dispatch reference: ${r.detail}`);
        if (r.kind === 'accepted') accepted++;
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    ctx.nextRaw += ctx.sends;
    return { ops: ctx.sends, extras: { ...cpuExtras(before, ctx.sends), accepted: accepted / ctx.sends } };
  },
  async teardown(ctx) {
    await ctx.pacerApi.close();
    await ctx.rawApi.close();
    await ctx.store.close();
    await ctx.sim.stop();
    rmSync(ctx.dir, { recursive: true, force: true });
  },
  meets: ({ pacer, ratio, extras }) => pacer.median >= 1_000 && ratio >= 0.8 && (extras.pacer['coreAt1000PerSecond'] ?? 1) < 0.5,
};

export default benchmark;
