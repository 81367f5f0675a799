import { NO_DISPATCHER_HERE } from '../src/app/work-signal.js';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer as createHttpServer, request as httpRequest, type Server } from 'node:http';
import { createServer as createTcpServer } from 'node:net';
import path from 'node:path';
import Database from 'better-sqlite3';
import { writeFileSync } from 'node:fs';
import { simulatedAccounts, startSimulator, type Simulator } from '../src/adapters/simulator/index.js';
import { openStore, SQLITE_FILE_NAME } from '../src/adapters/storage/open-store.js';
import { importContactRecords, type ContactRecord } from '../src/app/import-contact-records.js';
import { startCampaign } from '../src/app/start-campaign.js';
import { DEFAULT_POLICY } from '../src/core/policy.js';
import type { OutboxRow, Store } from '../src/ports/store.js';
import { eventually } from './await-state.js';
import { onlyCountries } from './engine-rig.js';
import { plainTemplates } from './plain-templates.js';

/**
 * Pieces for crash tests of `pacer serve` as a real child process: the simulated Cloud API in this
 * process on real time, a campaign set up in SQLite beforehand, a recording hop in front of the
 * webhook endpoint, and the child itself, which the test may SIGKILL and start again on the same port.
 */
export const APP_SECRET = 'crash-test-secret';
const FAST = { min: 1, max: 5 };

export interface CrashWorld {
  dir: string;
  /** The numbers the campaign goes from (a spread pool when more than one). */
  numbers: string[];
  store: Store;
  sim: Simulator;
  campaignId: number;
  /** Where `pacer serve` listens, the same port every time. */
  port: number;
  /** Between the simulator and `pacer serve`: which webhooks were acknowledged. */
  webhooks: Hop;
  /** Between `pacer serve` and the simulator: the Cloud API's round trip. */
  api: Hop;
  env: NodeJS.ProcessEnv;
  close(): Promise<void>;
}

/**
 * A campaign of `recipients` marketing messages to uncapped countries, started and due now. With
 * `numbers` above 1 the simulator has that many numbers in one account, the campaign spreads its
 * recipients over them, and `pacer serve` learns them from an accounts file (PACER_ACCOUNTS_FILE)
 * and a sender sync at start, as a real multi-number installation does.
 */
export async function setUpCrashWorld(
  dir: string,
  options: { seed: number; population: number; recipients: number; apiDelayMs: () => number; numbers?: number },
): Promise<CrashWorld> {
  const count = options.numbers ?? 1;
  const store = openStore({ dataDir: dir });
  await store.migrate();
  const port = await freePort();
  const webhooks = await startHop(`http://127.0.0.1:${port}`);
  const sim = await startSimulator({
    seed: options.seed,
    appSecret: APP_SECRET,
    ...(count > 1
      ? {
          accessToken: ACCESS_TOKEN,
          accounts: simulatedAccounts({
            numbers: count,
            accessToken: ACCESS_TOKEN,
            appSecret: APP_SECRET,
            throughputMps: 1000,
            messagingLimit: 'TIER_UNLIMITED',
          }),
        }
      : {}),
    callbackUrl: `${webhooks.url}/webhooks/whatsapp`,
    templates: plainTemplates(),
    // Uncapped countries, nobody stopped, no negative reactions: every recipient can get the message once.
    population: { size: options.population, countries: onlyCountries('GB', 'DE'), notOnWhatsAppRate: 0, experimentRate: 0, stoppedRate: 0 },
    rateLimits: { throughputMps: 1000 },
    reactions: {
      sentDelayMs: FAST,
      deliveredDelayMs: FAST,
      readDelayMs: FAST,
      replyDelayMs: FAST,
      stopTapRate: 0,
      preferenceStopRate: 0,
      blockRate: 0,
      reportRate: 0,
    },
    // The messaging limit `pacer serve`'s sender sync reads from the simulated number: unlimited.
    quality: { messagingTier: 'TIER_UNLIMITED' },
    // No duplicates or late statuses (both take seconds to minutes); failed POSTs come again within a second.
    webhooks: { latencyMs: FAST, outOfOrderRate: 0, duplicateRate: 0, retryBaseMs: 100, retryMaxMs: 500, requestTimeoutMs: 5000 },
  });
  const api = await startHop(sim.url, options.apiDelayMs);
  const now = Date.now();
  const records: ContactRecord[] = sim.users.map((u, i) => ({
    phoneE164: `+${u.phone}`,
    name: u.name,
    tags: [],
    attributes: { country: u.country },
    consent: { marketing: i < options.recipients, utility: true },
  }));
  await importContactRecords(store, records, 'crash-test-import', DEFAULT_POLICY, now);
  const numbers = sim.config.accounts.flatMap((a) => a.numbers);
  const phoneNumberId = sim.config.phoneNumberId;
  const [templateId] = await store.upsertTemplates(
    [{ name: 'spring_sale', language: 'en_US', category: 'marketing', status: 'approved', quality: 'GREEN', pausedUntil: null }],
    now,
  );
  const [senderId] = await store.upsertSenders(
    numbers.map((n) => ({
      phoneNumberId: n.phoneNumberId,
      displayNumber: n.displayPhoneNumber,
      qualityRating: 'GREEN',
      throughputMps: 80,
      messagingLimitTier: 'TIER_UNLIMITED',
      state: 'ok' as const,
      stateReason: null,
      stateUntil: null,
    })),
    now,
  );
  if (templateId === undefined || senderId === undefined) throw new Error('crash rig: setup failed');
  const campaignId = await store.createCampaign(
    {
      name: 'Crash sale',
      templateId,
      senderId,
      segment: { consent: ['marketing'] },
      scheduledAt: now,
      policyPreset: 'meta',
      status: 'draft',
      senderPool: count > 1 ? { by: 'spread', numbers: numbers.map((n) => n.phoneNumberId) } : null,
    },
    now,
  );
  const started = await startCampaign(store, campaignId, { phoneNumberId }, now, NO_DISPATCHER_HERE);
  if (started.inserted !== options.recipients)
    throw new Error(`crash rig: expected ${options.recipients} outbox rows, got ${started.inserted}`);
  const credentials: NodeJS.ProcessEnv =
    count > 1
      ? { PACER_ACCOUNTS_FILE: writeAccountsFile(dir, sim.config.wabaId), CRASH_ACCESS_TOKEN: sim.config.accessToken }
      : { WHATSAPP_ACCESS_TOKEN: sim.config.accessToken };
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PACER_DATA_DIR: dir,
    PACER_PORT: String(port),
    // Real time: quiet hours would hold the campaign whenever the run falls in its recipients' night.
    PACER_QUIET_HOURS: 'off',
    WHATSAPP_APP_SECRET: APP_SECRET,
    WHATSAPP_VERIFY_TOKEN: 'crash',
    ...credentials,
    WHATSAPP_PHONE_NUMBER_ID: phoneNumberId,
    WHATSAPP_API_BASE_URL: api.url,
  };
  return {
    dir,
    numbers: numbers.map((n) => n.phoneNumberId),
    store,
    sim,
    campaignId,
    port,
    webhooks,
    api,
    env,
    async close() {
      await sim.stop();
      await webhooks.close();
      await api.close();
      await store.close();
    },
  };
}

const ACCESS_TOKEN = 'crash-access-token';

/** One account holding every number; the token is read from the variable it names, as in production. */
function writeAccountsFile(dir: string, wabaId: string): string {
  const file = path.join(dir, 'accounts.json');
  writeFileSync(file, JSON.stringify({ accounts: [{ name: 'crash', businessAccountId: wabaId, accessTokenEnv: 'CRASH_ACCESS_TOKEN' }] }));
  return file;
}

export async function freePort(): Promise<number> {
  const server = createTcpServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Resolves once nothing listens on `port` any more (a killed process's socket is gone). */
export async function waitForPortFree(port: number, deadline: number): Promise<void> {
  if (!(await eventually(() => portIsFree(port), deadline, 20))) throw new Error(`port ${port} still in use`);
}

async function portIsFree(port: number): Promise<boolean> {
  const server = createTcpServer();
  const free = await new Promise<boolean>((resolve) => {
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => resolve(true));
  });
  if (free) await new Promise((resolve) => server.close(resolve));
  return free;
}

export interface Hop {
  url: string;
  /** Every request body the target answered 200 to, in order. */
  acknowledged: Buffer[];
  /** Requests that got anything else, or no answer at all (the target was down or died mid-request). */
  refused: number;
  /** Requests received and not yet answered (their sender may have died meanwhile). */
  inFlight: number;
  close(): Promise<void>;
}

/**
 * A transparent HTTP hop to `target`, after `delayMs()` of network time. In front of the webhook
 * endpoint it remembers which bodies were acknowledged, so the test can look for each one in the
 * inbox; a dead endpoint answers 502, which the simulator retries like any failed delivery. In front
 * of the Cloud API it gives sends a real round trip, so a kill can land while requests are in flight:
 * a request already on its way is delivered even if its sender dies, as it would be to Meta.
 */
export async function startHop(target: string, delayMs: () => number = () => 0): Promise<Hop> {
  const { hostname, port: targetPort } = new URL(target);
  const hop = { acknowledged: [] as Buffer[], refused: 0, inFlight: 0 };
  const server: Server = createHttpServer((req, res) => {
    hop.inFlight++;
    let received = false;
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received = true;
      setTimeout(() => forward(Buffer.concat(chunks)), delayMs());
    });
    // The sender died before its request was complete: nothing goes on to the target.
    req.on('error', () => {
      if (!received) hop.inFlight--;
      received = true;
    });
    const forward = (body: Buffer): void => {
      const headers: Record<string, string> = { 'content-length': String(body.length) };
      for (const name of ['content-type', 'authorization', 'x-hub-signature-256']) {
        const value = req.headers[name];
        if (typeof value === 'string') headers[name] = value;
      }
      let settled = false;
      const refuse = (): void => {
        if (settled) return;
        settled = true;
        hop.inFlight--;
        hop.refused++;
        if (!res.headersSent) res.writeHead(502).end();
      };
      // No keep-alive: a pooled socket to a killed process would only add noise.
      const upstream = httpRequest(
        { host: hostname, port: Number(targetPort), method: req.method, path: req.url, headers, agent: false },
        (answer) => {
          const reply: Buffer[] = [];
          answer.on('data', (c: Buffer) => reply.push(c));
          answer.on('error', refuse);
          answer.on('end', () => {
            if (settled) return;
            settled = true;
            hop.inFlight--;
            if (answer.statusCode === 200) hop.acknowledged.push(body);
            else hop.refused++;
            const type = answer.headers['content-type'];
            res.writeHead(answer.statusCode ?? 502, type === undefined ? {} : { 'content-type': type }).end(Buffer.concat(reply));
          });
        },
      );
      upstream.on('error', refuse);
      upstream.end(body);
    };
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    acknowledged: hop.acknowledged,
    get refused() {
      return hop.refused;
    },
    get inFlight() {
      return hop.inFlight;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface ServeProcess {
  child: ChildProcess;
  /** stdout and stderr so far, for failure messages. */
  output(): string;
}

/**
 * Starts `node bin/pacer.js serve` and resolves once it dispatches. A start that loses the port to
 * a socket not yet released (EADDRINUSE) is retried until the deadline.
 */
export async function startServe(world: CrashWorld, deadline: number): Promise<ServeProcess> {
  for (;;) {
    await waitForPortFree(world.port, deadline);
    const child = spawn(process.execPath, ['bin/pacer.js', 'serve'], { env: world.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let text = '';
    child.stdout?.on('data', (c: Buffer) => (text += c.toString()));
    child.stderr?.on('data', (c: Buffer) => (text += c.toString()));
    const exited = once(child, 'exit');
    const ready = await eventually(() => text.includes('Dispatching from') || child.exitCode !== null, deadline, 10);
    if (ready && child.exitCode === null) return { child, output: () => text };
    if (child.exitCode === null) child.kill('SIGKILL');
    await exited;
    if (!text.includes('EADDRINUSE') || Date.now() > deadline)
      throw new Error(`pacer serve did not start (exit ${child.exitCode}):\n${text}`);
  }
}

/** SIGKILL: no handler runs, nothing is flushed; resolves once the process is gone. */
export async function killHard(p: ServeProcess): Promise<void> {
  if (p.child.exitCode !== null || p.child.signalCode !== null) return;
  const exited = once(p.child, 'exit');
  p.child.kill('SIGKILL');
  await exited;
}

/** SIGTERM: the graceful stop; resolves with the exit code. */
export async function stopGracefully(p: ServeProcess): Promise<number | null> {
  if (p.child.exitCode !== null) return p.child.exitCode;
  const exited = once(p.child, 'exit');
  p.child.kill('SIGTERM');
  await exited;
  return p.child.exitCode;
}

/** Reads behind the store port (it has no listings): ids from SQLite directly, rows through the port. */
export async function campaignRows(world: CrashWorld): Promise<OutboxRow[]> {
  const ids = readSqlite(world.dir, (db) =>
    (db.prepare('SELECT id FROM outbox WHERE campaign_id = ? ORDER BY id').all(world.campaignId) as Array<{ id: number }>).map((r) => r.id),
  );
  const rows = await Promise.all(ids.map((id) => world.store.getOutbox(id)));
  return rows.filter((r): r is OutboxRow => r !== null);
}

export function statusCounts(world: CrashWorld): Record<string, number> {
  return readSqlite(world.dir, (db) =>
    Object.fromEntries(
      (
        db.prepare('SELECT status, COUNT(*) AS n FROM outbox WHERE campaign_id = ? GROUP BY status').all(world.campaignId) as Array<{
          status: string;
          n: number;
        }>
      ).map((r) => [r.status, r.n]),
    ),
  );
}

export interface StoredWebhook {
  raw: Buffer;
  processed: boolean;
  quarantineReason: string | null;
}

/** Every stored webhook body, as stored, and whether the inbox processor got to it. */
export function inboxRows(world: CrashWorld): StoredWebhook[] {
  const rows = readSqlite(
    world.dir,
    (db) =>
      db.prepare('SELECT raw, processed_at, quarantine_reason FROM webhook_inbox ORDER BY id').all() as Array<{
        raw: Buffer;
        processed_at: number | null;
        quarantine_reason: string | null;
      }>,
  );
  return rows.map((r) => ({ raw: r.raw, processed: r.processed_at !== null, quarantineReason: r.quarantine_reason }));
}

function readSqlite<T>(dir: string, read: (db: Database.Database) => T): T {
  const db = new Database(path.join(dir, SQLITE_FILE_NAME), { readonly: true, fileMustExist: true });
  try {
    db.pragma('busy_timeout = 5000');
    return read(db);
  } finally {
    db.close();
  }
}
