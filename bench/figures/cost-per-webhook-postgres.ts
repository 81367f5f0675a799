import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { webhookBody, type StatusObject } from '../../src/adapters/simulator/payloads.js';
import { WEBHOOK_PATH } from '../../src/adapters/http/webhook-routes.js';
import { signBody } from '../../src/adapters/http/webhook-signature.js';
import { openStore } from '../../src/adapters/storage/open-store.js';
import { DEFAULT_POLICY } from '../../src/core/policy.js';
import { systemClock } from '../../src/ports/clock.js';
import type { Store } from '../../src/ports/store.js';
import { perUnit } from '../fixtures/cost-counters.js';
import { askRoundTrips, Children, DATABASE_URL, dropSchema, lineReader, processCpuMs, WalTally } from '../fixtures/cost-rig.js';
import { queueSends, seedWorld } from '../fixtures/dispatch-rig.js';
import { ServerCostProbe, type ServerCost } from '../fixtures/server-cost-probe.js';
import { generateLoad } from '../harness/load.js';
import type { Benchmark, Sample } from '../harness/types.js';

const SECRET = 'bench-cost-secret';
const PHONE_NUMBER_ID = '106540352242922';
const WABA_ID = '102290129340398';
/** Requests in flight at the edge, as in the webhook-ingest figures. */
const CONNECTIONS = 64;
/** processInbox's batch; the reference applies in the same batches. */
const APPLY_BATCH = 200;
/** Samples a side can take before it runs out of sent messages (maxRounds + maxWarmup). */
const SAMPLES = 4;
const APPLY_TIMEOUT_MS = 180_000;

interface Message {
  outboxId: number;
  wamid: string;
  waId: string;
  contactId: number;
}

interface Ctx {
  children: Children;
  schema: string;
  store: Store;
  probe: ServerCostProbe;
  raw: pg.Client;
  serve: { pid: number; origin: string };
  roundTripsFile: string;
  perSample: number;
  pending: Message[];
  /** WAL by table per webhook: Pacer's samples, and the raw SQL's. */
  wal: { pacer: WalTally; raw: WalTally };
}

function take(ctx: Ctx): Message[] {
  if (ctx.pending.length < ctx.perSample) throw new Error('cost-per-webhook: out of sent messages; more rounds than setup made rows for');
  return ctx.pending.splice(0, ctx.perSample);
}

/** A signed `delivered` status webhook for one sent message, in Meta's shape. */
function webhook(m: Message): { body: Buffer; signature: string } {
  const status: StatusObject = {
    id: m.wamid,
    status: 'delivered',
    timestamp: String(Math.floor(Date.now() / 1000)),
    recipient_id: m.waId,
    biz_opaque_callback_data: `pacer:${m.outboxId}`,
    pricing: { billable: true, pricing_model: 'PMP', category: 'utility', type: 'regular' },
  };
  const body = Buffer.from(
    JSON.stringify(
      webhookBody({ wabaId: WABA_ID, phoneNumberId: PHONE_NUMBER_ID, displayPhoneNumber: '15550100' }, [{ kind: 'status', status }]),
    ),
  );
  return { body, signature: signBody(body, SECRET) };
}

async function count(ctx: Ctx, sql: string, params: unknown[] = []): Promise<number> {
  const [row] = (await ctx.raw.query<{ n: string }>(sql, params)).rows;
  return Number(row!.n);
}

/** Outbox rows as a send leaves them (sent, accepted, with a wamid), made directly: this figure is about the webhooks. */
async function sentMessages(store: Store, raw: pg.Client, count: number, contacts: number): Promise<Message[]> {
  const phones = Array.from({ length: contacts }, (_, i) => `1555${String(i).padStart(7, '0')}`);
  const world = await seedWorld(store, { phones, phoneNumberId: PHONE_NUMBER_ID }, DEFAULT_POLICY, systemClock.now(), 1_000);
  await queueSends(store, world, `cost-webhook-${process.pid}`, 0, count, systemClock.now());
  const rows = await raw.query<{ id: string; wamid: string; wa_id: string; contact_id: string }>(
    `UPDATE outbox o SET status = 'sent', outcome = 'accepted', attempts = 1, wamid = 'wamid.cost-' || o.id
FROM contacts c WHERE c.id = o.contact_id AND o.status = 'queued' RETURNING o.id, o.wamid, c.wa_id, o.contact_id`,
  );
  return rows.rows
    .map((r) => ({ outboxId: Number(r.id), wamid: r.wamid, waId: r.wa_id, contactId: Number(r.contact_id) }))
    .sort((a, b) => a.outboxId - b.outboxId);
}

/** `pacer serve --no-dispatch` on the schema, listening on a port of its own choosing. */
async function startServe(children: Children, schema: string, roundTripsFile: string): Promise<{ pid: number; origin: string }> {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    DATABASE_URL,
    PACER_DB_SCHEMA: schema,
    WHATSAPP_APP_SECRET: SECRET,
    PACER_HOST: '127.0.0.1',
    PACER_PORT: '0',
    PACER_MODE: 'production',
    PACER_LOG_LEVEL: 'error',
    PACER_BENCH_ROUND_TRIPS_FILE: roundTripsFile,
  };
  const child = children.spawn(['bench/fixtures/serve-process.ts', 'serve', '--no-dispatch'], env);
  const line = lineReader(child, 'pacer serve');
  for (let n = 1; n <= 20; n++) {
    const m = /^Pacer on (http:\/\/[^ ]+) /.exec(await line(n));
    if (m !== null) return { pid: child.pid!, origin: m[1]! };
  }
  throw new Error('pacer serve: no "Pacer on <url>" line');
}

/** Waits until the inbox has nothing left to apply, and checks each message got its status applied. */
async function appliedAll(ctx: Ctx, messages: Message[]): Promise<void> {
  const deadline = Date.now() + APPLY_TIMEOUT_MS;
  while ((await count(ctx, 'SELECT count(*) AS n FROM webhook_inbox WHERE processed_at IS NULL')) > 0) {
    if (Date.now() > deadline) throw new Error(`cost-per-webhook: inbox not applied within ${APPLY_TIMEOUT_MS / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const ids = messages.map((m) => m.outboxId);
  const applied = await count(
    ctx,
    "SELECT count(*) AS n FROM message_events WHERE status = 'delivered' AND outbox_id = ANY($1::bigint[])",
    [ids],
  );
  const quarantined = await count(ctx, 'SELECT count(*) AS n FROM webhook_inbox WHERE quarantine_reason IS NOT NULL');
  if (applied !== messages.length || quarantined > 0) {
    throw new Error(`cost-per-webhook: ${applied} of ${messages.length} statuses applied, ${quarantined} payloads quarantined`);
  }
}

/** WAL and background CPU per webhook, named `walBytes` … or, with a prefix, `rawWalBytes` …. */
function serverExtras(prefix: string, s: ServerCost, units: number): Record<string, number> {
  const key = (k: string): string => (prefix === '' ? k : `${prefix}${k[0]!.toUpperCase()}${k.slice(1)}`);
  const out: Record<string, number> = {};
  if (s.walBytes !== null) out[key('walBytes')] = perUnit(s.walBytes, units, 'WAL bytes');
  out[key('clusterWalBytes')] = perUnit(s.clusterWalBytes, units, 'cluster WAL bytes');
  if (s.backgroundCpuMs !== null) out[key('bgCpuMs')] = perUnit(s.backgroundCpuMs, units, 'background CPU');
  return out;
}

/**
 * The same rows by raw SQL: the payloads inserted in groups of 64 (the edge's group commit at 64 in
 * flight), then per 200 (the inbox's batch) one transaction of set-based statements: the status
 * events, the outbox rows' outcome, the contacts' state rows rewritten, the payloads marked applied.
 */
async function rawApply(ctx: Ctx, messages: Message[]): Promise<Sample> {
  const prefix = `pacer bench-raw-${process.pid}`;
  const bodies = messages.map((m) => webhook(m).body);
  const mark = await ctx.probe.mark(prefix);
  const cpu = process.cpuUsage();
  const started = performance.now();
  let trips = 0;
  const inboxIds: number[] = [];
  for (let i = 0; i < bodies.length; i += CONNECTIONS) {
    const group = bodies.slice(i, i + CONNECTIONS);
    const now = systemClock.now();
    const rows = await ctx.raw.query<{ id: string }>(
      'INSERT INTO webhook_inbox (raw, received_at, signature_ok) SELECT r, $2, true FROM unnest($1::bytea[]) AS r RETURNING id',
      [group, now],
    );
    trips++;
    inboxIds.push(...rows.rows.map((r) => Number(r.id)).sort((a, b) => a - b));
  }
  for (let i = 0; i < messages.length; i += APPLY_BATCH) {
    const batch = messages.slice(i, i + APPLY_BATCH);
    const ids = inboxIds.slice(i, i + APPLY_BATCH);
    const now = systemClock.now();
    await ctx.raw.query('BEGIN');
    await ctx.raw.query(
      `INSERT INTO message_events (wamid, status, at, inbox_id, recorded_at, outbox_id)
SELECT w, 'delivered', $4, i, $4, o FROM unnest($1::text[], $2::bigint[], $3::bigint[]) AS e(w, i, o)`,
      [batch.map((m) => m.wamid), ids, batch.map((m) => m.outboxId), now],
    );
    await ctx.raw.query(`UPDATE outbox SET status = 'done', outcome = 'delivered', updated_at = $2 WHERE id = ANY($1::bigint[])`, [
      batch.map((m) => m.outboxId),
      now,
    ]);
    await ctx.raw.query(
      'UPDATE contact_states SET state = state, version = version + 1, updated_at = $2 WHERE contact_id = ANY($1::bigint[])',
      [batch.map((m) => m.contactId), now],
    );
    await ctx.raw.query('UPDATE webhook_inbox SET processed_at = $2 WHERE id = ANY($1::bigint[])', [ids, now]);
    await ctx.raw.query('COMMIT');
    trips += 6;
  }
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  const server = await ctx.probe.measure(mark, prefix);
  const n = messages.length;
  ctx.wal.raw.add(server, n);
  return {
    value: perUnit(server.backendCpuMs, n, 'raw server CPU per webhook'),
    extras: {
      rawPerS: n / seconds,
      rawRoundTrips: perUnit(trips, n, 'raw round trips'),
      rawClientCpuMs: perUnit((used.user + used.system) / 1000, n, 'raw client CPU'),
      ...serverExtras('raw', server, n),
    },
  };
}

const benchmark: Benchmark<Ctx> = {
  name: 'cost-per-webhook-postgres',
  row: 'cost-per-webhook-postgres',
  figure:
    'PostgreSQL server CPU per status webhook applied (ms, its backends serving a real `pacer serve --no-dispatch`, from /proc): signed `delivered` webhooks for sent messages, 64 in flight, from the first POST to the inbox applied; extras per webhook: the edge process’s CPU, round trips, WAL bytes, rates acknowledged and applied',
  against:
    'the same rows by raw SQL: payloads inserted 64 at a time, then per 200 one transaction of set-based statements (status events, outbox outcome, contact state, inbox applied)',
  target: 'none set; tracked (it sizes the database for ~40,000 webhooks/s)',
  unit: 'ms server CPU/webhook',
  higherIsBetter: false,
  maxRounds: 3,
  maxWarmup: 1,
  async setup({ quick }) {
    const perSample = quick ? 400 : 1_000;
    const children = new Children();
    const schema = `pacer_bench_cost_hook_${process.pid}_${Date.now()}`;
    const roundTripsFile = path.join(tmpdir(), `pacer-bench-round-trips-${process.pid}`);
    const opened: Array<{ close(): Promise<void> }> = [];
    try {
      const store = openStore({ databaseUrl: DATABASE_URL, schema });
      opened.push(store);
      await store.migrate();
      const raw = new pg.Client({
        connectionString: DATABASE_URL,
        application_name: `pacer bench-raw-${process.pid}`,
        options: `-c search_path=${schema}`,
      });
      await raw.connect();
      opened.push({ close: () => raw.end() });
      // Both sides take fresh messages each sample: a second `delivered` would be a cheaper duplicate.
      const pending = await sentMessages(store, raw, 2 * SAMPLES * perSample, perSample);
      const probe = await ServerCostProbe.open(DATABASE_URL, schema);
      opened.push(probe);
      const serve = await startServe(children, schema, roundTripsFile);
      return {
        children,
        schema,
        store,
        probe,
        raw,
        serve,
        roundTripsFile,
        perSample,
        pending,
        wal: { pacer: new WalTally(), raw: new WalTally() },
      };
    } catch (error) {
      children.killAll();
      for (const o of opened.reverse()) await o.close().catch(() => undefined);
      await dropSchema(schema).catch(() => undefined); // the first error is the one to report
      throw error;
    }
  },
  async pacer(ctx): Promise<Sample> {
    const messages = take(ctx);
    const hooks = messages.map(webhook);
    const prefix = `pacer serve ${ctx.serve.pid}`;
    const mark = await ctx.probe.mark(prefix);
    const cpuBefore = processCpuMs(ctx.serve.pid);
    const tripsBefore = await askRoundTrips(ctx.serve.pid, ctx.roundTripsFile);
    const started = performance.now();
    const load = await generateLoad({
      origin: ctx.serve.origin,
      connections: CONNECTIONS,
      maxRequests: hooks.length,
      maxDurationMs: APPLY_TIMEOUT_MS,
      request: (i) => ({
        path: WEBHOOK_PATH,
        headers: { 'content-type': 'application/json', 'x-hub-signature-256': hooks[i]!.signature },
        body: hooks[i]!.body,
      }),
    });
    if (load.ok !== hooks.length)
      throw new Error(`cost-per-webhook: ${load.failed} of ${hooks.length} webhooks failed (${load.firstError})`);
    await appliedAll(ctx, messages);
    const seconds = (performance.now() - started) / 1000;
    const server = await ctx.probe.measure(mark, prefix);
    const edgeCpuMs = processCpuMs(ctx.serve.pid) - cpuBefore;
    // Asked after the server readings: the question itself runs no query.
    const trips = (await askRoundTrips(ctx.serve.pid, ctx.roundTripsFile)) - tripsBefore;
    const n = messages.length;
    ctx.wal.pacer.add(server, n);
    return {
      value: perUnit(server.backendCpuMs, n, 'server CPU per webhook'),
      extras: {
        ackPerS: load.rate,
        appliedPerS: n / seconds,
        edgeCpuMs: perUnit(edgeCpuMs, n, 'edge CPU per webhook'),
        roundTrips: perUnit(trips, n, 'round trips per webhook'),
        ...serverExtras('', server, n),
      },
    };
  },
  reference: (ctx) => rawApply(ctx, take(ctx)),
  async teardown(ctx) {
    ctx.children.killAll();
    const [pacer, raw] = [ctx.wal.pacer.line(), ctx.wal.raw.line()];
    if (pacer !== null) process.stderr.write(`\ncost-per-webhook-postgres: WAL bytes per webhook by table: ${pacer}\n`);
    if (raw !== null) process.stderr.write(`cost-per-webhook-postgres: WAL bytes per webhook by table, raw SQL: ${raw}\n`);
    try {
      await ctx.raw.end().catch(() => undefined);
      await ctx.probe.close().catch(() => undefined);
      await ctx.store.close();
    } finally {
      rmSync(ctx.roundTripsFile, { force: true });
      await dropSchema(ctx.schema);
    }
  },
  meets: () => null,
};

export default benchmark;
