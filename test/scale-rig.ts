import { NO_DISPATCHER_HERE } from '../src/app/work-signal.js';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import pg from 'pg';
import { startSimulator, type Simulator, type SimulatorConfigInput } from '../src/adapters/simulator/index.js';
import { importContactRecords, type ContactRecord } from '../src/app/import-contact-records.js';
import { startCampaign } from '../src/app/start-campaign.js';
import { DEFAULT_POLICY } from '../src/core/policy.js';
import type { Store } from '../src/ports/store.js';
import { eventually } from './await-state.js';
import { freePort, startHop, type Hop } from './crash-rig.js';
import { onlyCountries } from './engine-rig.js';
import { BACKENDS, type Place } from './store-backends.js';
import { plainTemplates } from './plain-templates.js';

/**
 * Pacer deployed as in production on PostgreSQL: one `pacer serve --no-dispatch` taking the
 * webhooks, and worker processes (`pacer worker`) that send, each through its own recording hop to
 * the simulated Cloud API, which runs in this process on real time.
 */
export const APP_SECRET = 'scale-test-secret';
const FAST = { min: 1, max: 5 };

export interface ScaleOptions {
  seed: number;
  recipients: number;
  /** Worker slots; each has its own hop to the simulator, so the test sees who sent what. */
  workers: number;
  /** The number's throughput as Pacer knows it (the sender row). */
  senderMps: number;
  /** Each worker's own ceiling (PACER_WORKER_MPS). */
  workerMps: number;
  leaseMs: number;
  /** Network time of a Cloud API round trip, per request. */
  apiDelayMs?: () => number;
  /** Workers talk to the simulator itself, so resets and timeouts reach them as they are (no hop). */
  direct?: boolean;
  sim?: SimulatorConfigInput;
}

export interface PacerProcess {
  child: ChildProcess;
  output(): string;
}

export interface ScaleWorld {
  store: Store;
  place: Place;
  sim: Simulator;
  campaignId: number;
  /** Simulator -> serve: which webhooks were acknowledged. */
  webhooks: Hop;
  /** Worker slot -> simulator. */
  apis: Hop[];
  edge: PacerProcess;
  workers: Array<PacerProcess | null>;
  startWorker(slot: number): Promise<PacerProcess>;
  /** SIGKILL: nothing runs, nothing is flushed. */
  killWorker(slot: number): Promise<void>;
  /** Every process of this world, for pg_stat_activity (application_name `pacer <role> <pid>`). */
  pids(): number[];
  query<T extends Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  statusCounts(): Promise<Record<string, number>>;
  close(): Promise<void>;
}

function postgres(): { place: () => Place } {
  const backend = BACKENDS.find((b) => b.name === 'postgres');
  if (backend === undefined) throw new Error('scale rig: no PostgreSQL backend');
  return backend;
}

/** Starts a pacer command and resolves once it prints `ready`; throws with its output if it exits first. */
export async function startPacer(args: string[], env: NodeJS.ProcessEnv, ready: string, deadline: number): Promise<PacerProcess> {
  const child = spawn(process.execPath, ['bin/pacer.js', ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let text = '';
  child.stdout?.on('data', (c: Buffer) => (text += c.toString()));
  child.stderr?.on('data', (c: Buffer) => (text += c.toString()));
  const up = await eventually(() => text.includes(ready) || child.exitCode !== null, deadline, 10);
  if (!up || child.exitCode !== null) {
    child.kill('SIGKILL');
    throw new Error(`pacer ${args.join(' ')} did not start (exit ${child.exitCode}):\n${text}`);
  }
  return { child, output: () => text };
}

export async function killHard(p: PacerProcess | null): Promise<void> {
  if (p === null || p.child.exitCode !== null || p.child.signalCode !== null) return;
  const exited = once(p.child, 'exit');
  p.child.kill('SIGKILL');
  await exited;
}

/** SIGTERM, then SIGKILL after 15 s: the exit code of a graceful stop, or null. */
export async function stopGracefully(p: PacerProcess | null): Promise<number | null> {
  if (p === null) return null;
  if (p.child.exitCode !== null || p.child.signalCode !== null) return p.child.exitCode;
  const exited = once(p.child, 'exit');
  p.child.kill('SIGTERM');
  const timer = setTimeout(() => p.child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(timer);
  return p.child.exitCode;
}

/** A marketing campaign to `recipients` people in uncapped countries, started and due now. */
export async function setUpScaleWorld(o: ScaleOptions, deadline: number): Promise<ScaleWorld> {
  const place = postgres().place();
  const { databaseUrl, schema } = place.options;
  if (databaseUrl === undefined || schema === undefined) throw new Error('scale rig: a PostgreSQL place expected');
  const store = place.open();
  await store.migrate();
  const port = await freePort();
  const webhooks = await startHop(`http://127.0.0.1:${port}`);
  const sim = await startSimulator({
    seed: o.seed,
    appSecret: APP_SECRET,
    callbackUrl: `${webhooks.url}/webhooks/whatsapp`,
    templates: plainTemplates(),
    ...o.sim,
    // Uncapped countries, nobody stopped, no negative reactions: every recipient can get the message once.
    population: {
      size: o.recipients,
      countries: onlyCountries('GB', 'DE'),
      notOnWhatsAppRate: 0,
      experimentRate: 0,
      stoppedRate: 0,
      ...o.sim?.population,
    },
    reactions: {
      sentDelayMs: FAST,
      deliveredDelayMs: FAST,
      readDelayMs: FAST,
      replyDelayMs: FAST,
      stopTapRate: 0,
      preferenceStopRate: 0,
      blockRate: 0,
      reportRate: 0,
      ...o.sim?.reactions,
    },
    webhooks: {
      latencyMs: FAST,
      outOfOrderRate: 0,
      duplicateRate: 0,
      retryBaseMs: 100,
      retryMaxMs: 500,
      requestTimeoutMs: 5000,
      ...o.sim?.webhooks,
    },
    // The portfolio's messaging limit as Meta reports it to the workers' sender sync: unlimited, so
    // the 20,000 people are reached in one day, as the campaign was set up for.
    quality: { messagingTier: 'TIER_UNLIMITED', ...o.sim?.quality },
  });
  const apis = await Promise.all(Array.from({ length: o.workers }, () => startHop(sim.url, o.apiDelayMs)));
  const now = Date.now();
  const records: ContactRecord[] = sim.users.map((u) => ({
    phoneE164: `+${u.phone}`,
    name: u.name,
    tags: [],
    attributes: { country: u.country },
    consent: { marketing: true, utility: true },
  }));
  for (let i = 0; i < records.length; i += 5000)
    await importContactRecords(store, records.slice(i, i + 5000), 'scale-test-import', DEFAULT_POLICY, now);
  const phoneNumberId = sim.config.phoneNumberId;
  const [templateId] = await store.upsertTemplates(
    [{ name: 'spring_sale', language: 'en_US', category: 'marketing', status: 'approved', quality: 'GREEN', pausedUntil: null }],
    now,
  );
  const [senderId] = await store.upsertSenders(
    [
      {
        phoneNumberId,
        displayNumber: sim.config.displayPhoneNumber,
        qualityRating: 'GREEN',
        throughputMps: o.senderMps,
        messagingLimitTier: 'TIER_UNLIMITED',
        state: 'ok',
        stateReason: null,
        stateUntil: null,
      },
    ],
    now,
  );
  if (templateId === undefined || senderId === undefined) throw new Error('scale rig: setup failed');
  const campaignId = await store.createCampaign(
    {
      name: 'Scale sale',
      templateId,
      senderId,
      segment: { consent: ['marketing'] },
      scheduledAt: now,
      policyPreset: 'meta',
      status: 'draft',
    },
    now,
  );
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: databaseUrl,
    PACER_DB_SCHEMA: schema,
    PACER_PORT: String(port),
    // Real time: quiet hours would hold the campaign whenever the run falls in its recipients' night.
    PACER_QUIET_HOURS: 'off',
    PACER_LEASE_MS: String(o.leaseMs),
    PACER_WORKER_MPS: String(o.workerMps),
    WHATSAPP_APP_SECRET: APP_SECRET,
    WHATSAPP_VERIFY_TOKEN: 'scale',
    WHATSAPP_ACCESS_TOKEN: sim.config.accessToken,
    WHATSAPP_PHONE_NUMBER_ID: phoneNumberId,
    PACER_WORKER_PORT: '0',
  };
  // The edge first, so no webhook is refused; the campaign starts once it listens.
  const edge = await startPacer(['serve', '--no-dispatch'], env, 'Not dispatching', deadline);
  const started = await startCampaign(store, campaignId, { phoneNumberId }, Date.now(), NO_DISPATCHER_HERE);
  if (started.inserted !== o.recipients) throw new Error(`scale rig: expected ${o.recipients} outbox rows, got ${started.inserted}`);
  const client = new pg.Client({
    connectionString: databaseUrl,
    options: `-c search_path=${schema}`,
    application_name: 'pacer-test-observer',
  });
  await client.connect();
  const workers: Array<PacerProcess | null> = Array.from({ length: o.workers }, () => null);
  const world: ScaleWorld = {
    store,
    place,
    sim,
    campaignId,
    webhooks,
    apis,
    edge,
    workers,
    async startWorker(slot) {
      const hop = apis[slot];
      if (hop === undefined) throw new Error(`scale rig: no worker slot ${slot}`);
      const p = await startPacer(
        ['worker'],
        { ...env, WHATSAPP_API_BASE_URL: o.direct === true ? sim.url : hop.url },
        'Dispatching from',
        Date.now() + 30_000,
      );
      workers[slot] = p;
      return p;
    },
    async killWorker(slot) {
      await killHard(workers[slot] ?? null);
      workers[slot] = null;
    },
    pids: () => [edge, ...workers].flatMap((p) => (p?.child.pid === undefined || p.child.exitCode !== null ? [] : [p.child.pid])),
    async query<T extends Record<string, unknown>>(sql: string, params: unknown[] = []) {
      return (await client.query(sql, params)).rows as T[];
    },
    async statusCounts() {
      const rows = await world.query<{ status: string; n: string }>(
        'SELECT status, COUNT(*) AS n FROM outbox WHERE campaign_id = $1 GROUP BY status',
        [campaignId],
      );
      return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
    },
    async close() {
      await Promise.all([edge, ...workers].map((p) => stopGracefully(p)));
      await sim.stop();
      await webhooks.close();
      await Promise.all(apis.map((a) => a.close()));
      await client.end();
    },
  };
  return world;
}
