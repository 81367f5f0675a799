import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { openStore, type OpenStoreOptions } from '../../src/adapters/storage/open-store.js';
import { DEFAULT_POLICY } from '../../src/core/policy.js';
import { DAY, MINUTE } from '../../src/core/time.js';
import { systemClock } from '../../src/ports/clock.js';
import type { Store } from '../../src/ports/store.js';
import { perUnit } from '../fixtures/cost-counters.js';
import { Children, DATABASE_URL, dropSchema, startWorkers, WalTally, type WorkerResult } from '../fixtures/cost-rig.js';
import { API_VERSION, queueSends, seedWorld, startSimulatorProcess, type SimulatorProcess, type World } from '../fixtures/dispatch-rig.js';
import { ServerCostProbe, type ServerCost } from '../fixtures/server-cost-probe.js';
import type { Benchmark, Sample } from '../harness/types.js';

/** The dispatcher's batch (a number's highest tier at 1,000/s); the reference writes in the same batches. */
const BATCH = 1_000;
const WORKER_COUNTS = [1, 2, 3] as const;

interface Ctx {
  children: Children;
  schema: string;
  sqliteDir: string;
  pgStore: Store;
  sqliteStore: Store;
  pgWorld: World;
  sqliteWorld: World;
  sim: SimulatorProcess;
  probe: ServerCostProbe;
  raw: pg.Client;
  sends: number;
  batches: number;
  /** WAL by table per send: three workers' runs, and the raw SQL's. */
  wal: { workers: WalTally; raw: WalTally };
}

/** Per send, for one run of `workers` workers. */
interface RunCost {
  sendsPerSecond: number;
  pacerCpuMs: number;
  roundTrips: number;
  server: ServerCost | null;
  sent: number;
}

const workerPrefix = (): string => `pacer bench-worker-${process.pid} `;

function api(ctx: Ctx): { baseUrl: string; apiVersion: string; phoneNumberId: string; accessToken: string } {
  return { baseUrl: ctx.sim.url, apiVersion: API_VERSION, phoneNumberId: ctx.sim.phoneNumberId, accessToken: ctx.sim.accessToken };
}

/** Queues `sends` rows, starts the workers, and measures from one barrier to the last worker idle. */
async function dispatchRun(ctx: Ctx, workers: number, backend: 'postgres' | 'sqlite'): Promise<RunCost> {
  await ctx.sim.advance(DAY); // earlier messages' lifecycles finish in the simulator, off the clock
  const store = backend === 'postgres' ? ctx.pgStore : ctx.sqliteStore;
  const world = backend === 'postgres' ? ctx.pgWorld : ctx.sqliteWorld;
  const queued = await queueSends(store, world, `cost-${ctx.batches++}`, 0, ctx.sends, systemClock.now());
  const options: OpenStoreOptions =
    backend === 'postgres'
      ? { databaseUrl: DATABASE_URL, schema: ctx.schema, applicationName: workerPrefix().trimEnd() }
      : { dataDir: ctx.sqliteDir };
  const group = startWorkers(ctx.children, workers, options, api(ctx));
  await group.ready();
  const mark = backend === 'postgres' ? await ctx.probe.mark(workerPrefix()) : null;
  const { results, seconds } = await group.go();
  const server = mark === null ? null : await ctx.probe.measure(mark, workerPrefix());
  await group.exit();
  const total = (f: (r: WorkerResult) => number): number => results.reduce((a, r) => a + f(r), 0);
  const sent = total((r) => r.sent);
  const claimed = total((r) => r.claimed);
  if (claimed !== queued || sent < claimed * 0.95) throw new Error(`cost-per-send: ${sent} sent of ${claimed} claimed, ${queued} queued`);
  return {
    sendsPerSecond: sent / seconds,
    pacerCpuMs: perUnit(total((r) => r.cpuSeconds) * 1000, sent, 'Pacer CPU per send'),
    roundTrips: perUnit(
      total((r) => r.roundTrips),
      sent,
      'round trips per send',
    ),
    server,
    sent,
  };
}

/**
 * The same rows' writes as plain statements, in the dispatcher's batches: one claim (the same
 * SKIP LOCKED statement), one UPDATE recording the batch's intents, one recording its answers.
 * What the database has to do at least to move a row from queued to sent, with no decision in between.
 */
async function rawRun(ctx: Ctx): Promise<{ rows: number; perSecond: number; roundTrips: number; clientCpuMs: number; server: ServerCost }> {
  await queueSends(ctx.pgStore, ctx.pgWorld, `cost-raw-${ctx.batches++}`, 0, ctx.sends, systemClock.now());
  const prefix = `pacer bench-raw-${process.pid}`;
  const mark = await ctx.probe.mark(prefix);
  const cpu = process.cpuUsage();
  const started = performance.now();
  let rows = 0;
  let roundTrips = 0;
  for (;;) {
    const now = systemClock.now();
    const claimed = await ctx.raw.query<{ id: string }>(
      `WITH due AS (SELECT o.id FROM outbox o WHERE o.status IN ('queued', 'held') AND o.next_attempt_at <= $1
  ORDER BY o.next_attempt_at, o.id LIMIT $2 FOR UPDATE OF o SKIP LOCKED)
UPDATE outbox SET status = 'leased', lease_owner = $3, lease_expires_at = $4, updated_at = $1 FROM due WHERE outbox.id = due.id RETURNING outbox.id`,
      [now, BATCH, 'bench-raw', now + MINUTE],
    );
    roundTrips++;
    if (claimed.rows.length === 0) break;
    const ids = claimed.rows.map((r) => r.id);
    await ctx.raw.query(`UPDATE outbox SET status = 'sending', attempts = attempts + 1, updated_at = $2 WHERE id = ANY($1::bigint[])`, [
      ids,
      now,
    ]);
    await ctx.raw.query(
      `UPDATE outbox SET status = 'sent', outcome = 'accepted', wamid = a.wamid, lease_owner = NULL, lease_expires_at = NULL, updated_at = $3
FROM unnest($1::bigint[], $2::text[]) AS a(id, wamid) WHERE outbox.id = a.id`,
      [ids, ids.map((id) => `wamid.raw-${ctx.batches}-${id}`), now],
    );
    roundTrips += 2;
    rows += ids.length;
  }
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  const server = await ctx.probe.measure(mark, prefix);
  if (rows !== ctx.sends) throw new Error(`cost-per-send reference: moved ${rows} rows of ${ctx.sends}`);
  return { rows, perSecond: rows / seconds, roundTrips, clientCpuMs: (used.user + used.system) / 1000, server };
}

function serverExtras(name: string, server: ServerCost, units: number, withBackground: boolean): Record<string, number> {
  const out: Record<string, number> = {};
  if (server.walBytes !== null) out[`${name}WalBytes`] = perUnit(server.walBytes, units, 'WAL bytes');
  if (withBackground) {
    out.clusterWalBytes = perUnit(server.clusterWalBytes, units, 'cluster WAL bytes');
    if (server.backgroundCpuMs !== null) out.bgCpuMs = perUnit(server.backgroundCpuMs, units, 'background CPU');
  }
  return out;
}

const benchmark: Benchmark<Ctx> = {
  name: 'cost-per-send-postgres',
  row: 'cost-per-send-postgres',
  figure:
    'PostgreSQL server CPU per send (ms, its backends serving the workers, from /proc) with 3 dispatcher worker processes on loopback, one simulator process, batches of 1,000; extras per send for 1/2/3 workers (w1…w3): sends/s, the workers’ own CPU, round trips, WAL bytes written by the run',
  against:
    'the same rows moved queued → sent by raw SQL in the same batches (claim, one UPDATE of intents, one of answers; value: server CPU per row); and the same sends through one SQLite worker process (sqlite…)',
  target: 'server CPU ≤ 0.2 ms per send; worker CPU per send ≤ 2× SQLite’s; ≥ 5,000 sends/s across workers',
  unit: 'ms server CPU/send',
  higherIsBetter: false,
  maxRounds: 3,
  maxWarmup: 1,
  async setup({ quick }) {
    const sends = quick ? 600 : 3_000;
    const children = new Children();
    const schema = `pacer_bench_cost_send_${process.pid}_${Date.now()}`;
    const sqliteDir = mkdtempSync(path.join(tmpdir(), 'pacer-bench-cost-'));
    const opened: Array<{ close(): Promise<void> }> = [];
    let sim: SimulatorProcess | null = null;
    try {
      sim = await startSimulatorProcess(sends);
      const pgStore = openStore({ databaseUrl: DATABASE_URL, schema });
      opened.push(pgStore);
      await pgStore.migrate();
      const sqliteStore = openStore({ dataDir: sqliteDir });
      opened.push(sqliteStore);
      await sqliteStore.migrate();
      const now = systemClock.now();
      const pgWorld = await seedWorld(pgStore, sim, DEFAULT_POLICY, now, 1_000);
      const sqliteWorld = await seedWorld(sqliteStore, sim, DEFAULT_POLICY, now, 1_000);
      const probe = await ServerCostProbe.open(DATABASE_URL, schema);
      opened.push(probe);
      const raw = new pg.Client({
        connectionString: DATABASE_URL,
        application_name: `pacer bench-raw-${process.pid}`,
        options: `-c search_path=${schema}`,
      });
      await raw.connect();
      opened.push({ close: () => raw.end() });
      return {
        children,
        schema,
        sqliteDir,
        pgStore,
        sqliteStore,
        pgWorld,
        sqliteWorld,
        sim,
        probe,
        raw,
        sends,
        batches: 0,
        wal: { workers: new WalTally(), raw: new WalTally() },
      };
    } catch (error) {
      for (const o of opened.reverse()) await o.close().catch(() => undefined);
      await sim?.stop().catch(() => undefined);
      rmSync(sqliteDir, { recursive: true, force: true });
      await dropSchema(schema).catch(() => undefined); // the first error is the one to report
      throw error;
    }
  },
  async pacer(ctx): Promise<Sample> {
    const extras: Record<string, number> = {};
    let serverCpuMs = Number.NaN;
    for (const workers of WORKER_COUNTS) {
      const run = await dispatchRun(ctx, workers, 'postgres');
      const w = `w${workers}`;
      const server = run.server!;
      extras[`${w}SendsPerS`] = run.sendsPerSecond;
      extras[`${w}PacerCpuMs`] = run.pacerCpuMs;
      extras[`${w}RoundTrips`] = run.roundTrips;
      const dbCpuMs = perUnit(server.backendCpuMs, run.sent, 'server CPU per send');
      if (workers === 3) {
        serverCpuMs = dbCpuMs;
        ctx.wal.workers.add(server, run.sent);
      } else extras[`${w}DbCpuMs`] = dbCpuMs;
      Object.assign(extras, serverExtras(w, server, run.sent, workers === 3));
    }
    return { value: serverCpuMs, extras };
  },
  async reference(ctx): Promise<Sample> {
    const raw = await rawRun(ctx);
    ctx.wal.raw.add(raw.server, raw.rows);
    const sqlite = await dispatchRun(ctx, 1, 'sqlite');
    return {
      value: perUnit(raw.server.backendCpuMs, raw.rows, 'raw server CPU per row'),
      extras: {
        rawRowsPerS: raw.perSecond,
        rawRoundTrips: perUnit(raw.roundTrips, raw.rows, 'raw round trips'),
        ...serverExtras('raw', raw.server, raw.rows, false),
        rawClientCpuMs: perUnit(raw.clientCpuMs, raw.rows, 'raw client CPU'),
        sqliteSendsPerS: sqlite.sendsPerSecond,
        sqliteCpuMs: sqlite.pacerCpuMs,
      },
    };
  },
  async teardown(ctx) {
    ctx.children.killAll();
    const [workers, raw] = [ctx.wal.workers.line(), ctx.wal.raw.line()];
    if (workers !== null) process.stderr.write(`\ncost-per-send-postgres: WAL bytes per send by table, 3 workers: ${workers}\n`);
    if (raw !== null) process.stderr.write(`cost-per-send-postgres: WAL bytes per row by table, raw SQL: ${raw}\n`);
    try {
      await ctx.raw.end().catch(() => undefined);
      await ctx.probe.close().catch(() => undefined);
      await ctx.pgStore.close();
      await ctx.sqliteStore.close();
      await ctx.sim.stop();
    } finally {
      rmSync(ctx.sqliteDir, { recursive: true, force: true });
      await dropSchema(ctx.schema);
    }
  },
  meets: ({ pacer, extras }) => {
    const perSecond = Math.max(...WORKER_COUNTS.map((w) => extras.pacer[`w${w}SendsPerS`] ?? 0));
    const workerCpu = extras.pacer.w3PacerCpuMs;
    const sqliteCpu = extras.reference.sqliteCpuMs;
    if (workerCpu === undefined || sqliteCpu === undefined) return null;
    return pacer.median <= 0.2 && workerCpu <= 2 * sqliteCpu && perSecond >= 5_000;
  },
};

export default benchmark;
