import { randomBytes } from 'node:crypto';
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import pg from 'pg';
import { request } from 'undici';
import { describe, expect, it, vi } from 'vitest';
import { startSimulator, type Simulator } from '../src/adapters/simulator/index.js';
import { IDLE_POLL, type PassReport } from '../src/app/dispatch-loop.js';
import { NO_DISPATCHER_HERE } from '../src/app/work-signal.js';
import { campaignAction } from '../src/app/campaign-actions.js';
import { recordConsent } from '../src/app/record-consent.js';
import { startCampaign } from '../src/app/start-campaign.js';
import { DEFAULT_POLICY } from '../src/core/policy.js';
import { startEngine, type Engine } from '../src/main/engine.js';
import { systemClock } from '../src/ports/clock.js';
import type { Store } from '../src/ports/store.js';
import { BACKENDS, PG_URL, type Place } from './store-backends.js';
import { plainTemplates } from './plain-templates.js';

const SECRET = 'queued-wake-secret';
const ADMIN = 'queued-wake-admin-token-0001';
const PHONE_NUMBER_ID = '106540352242922';

// Real time throughout, and the idle poll is five minutes: a wake-up that does not come leaves the
// message waiting past the test's timeout. Nothing here measures how soon it comes.

/** An engine that receives and serves the API only, as `serve --no-dispatch` (another process's edge). */
function startEdge(store: Store): Promise<Engine> {
  return startEngine({
    store,
    clock: systemClock,
    policy: DEFAULT_POLICY,
    random: () => 0.5,
    http: { host: '127.0.0.1', port: 0, appSecrets: [SECRET], verifyToken: null, mode: 'production' },
    worker: { owner: 'edge', mps: 10 },
    api: { adminToken: ADMIN, phoneNumberId: PHONE_NUMBER_ID },
  });
}

interface Worker {
  engine: Engine;
  sim: Simulator;
  /** Resolves with the first pass that sent something. */
  firstSend: Promise<PassReport>;
  stop(): Promise<void>;
}

/** A dispatching engine on the simulator, idle once this resolves (its first pass found nothing). */
async function startWorker(store: Store, options: { watchQueued?: boolean } = {}): Promise<Worker> {
  let sim!: Simulator;
  const engine = await startEngine({
    store,
    clock: systemClock,
    policy: DEFAULT_POLICY,
    random: () => 0.5,
    http: { host: '127.0.0.1', port: 0, appSecrets: [SECRET], verifyToken: null, mode: 'production' },
    worker: { owner: `worker-${randomBytes(3).toString('hex')}`, mps: 10 },
    api: { adminToken: ADMIN, phoneNumberId: PHONE_NUMBER_ID },
    cloudApi: async (url) => {
      sim = await startSimulator({
        seed: 5,
        templates: plainTemplates(),
        population: { size: 20 },
        appSecret: SECRET,
        phoneNumberId: PHONE_NUMBER_ID,
        callbackUrl: `${url}/webhooks/whatsapp`,
      });
      return { baseUrl: sim.url, apiVersion: 'v24.0', phoneNumberId: PHONE_NUMBER_ID, accessToken: sim.config.accessToken };
    },
    ...options,
  });
  const loop = engine.loop;
  if (loop === null) throw new Error('the worker does not dispatch');
  const firstSend = new Promise<PassReport>((resolve) => {
    const off = loop.onPass((p) => {
      if ('result' in p.outcome && p.outcome.result.sent > 0) {
        off();
        resolve(p);
      }
    });
  });
  // The first pass runs at start; after it the loop sleeps for the idle poll.
  const first = await loop.nextPass();
  expect(first.next.why).toBe('idle');
  expect(first.next.at - first.endedAt).toBeGreaterThan(IDLE_POLL / 2);
  return {
    engine,
    sim,
    firstSend,
    async stop() {
      await engine.stop();
      await sim.stop();
    },
  };
}

/** A simulated user with a valid number, stored as a contact who agreed to utility messages. */
async function consentingContact(store: Store, sim: Simulator): Promise<string> {
  // Simulated numbers are random digits: take one that is a valid number in its country.
  const user = sim.users.find((u) => parsePhoneNumberFromString(`+${u.phone}`)?.isValid() === true);
  if (user === undefined) throw new Error('no simulated user');
  const now = Date.now();
  const [id = -1] = (await store.upsertContacts([{ phoneE164: `+${user.phone}`, waId: user.phone }], now)).ids;
  await recordConsent(store, id, { category: 'utility', status: 'granted', source: 'test', evidence: null }, DEFAULT_POLICY, now);
  return `+${user.phone}`;
}

async function postMessage(engine: Engine, to: string): Promise<Record<string, unknown>> {
  const res = await request(`${engine.url}/api/v1/messages`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ to, category: 'utility', template: { name: 'order_update', language: 'en_US' } }),
  });
  const body = (await res.body.json()) as Record<string, unknown>;
  expect(res.statusCode, JSON.stringify(body)).toBe(202);
  return body;
}

async function migrated(place: Place, applicationName?: string): Promise<Store> {
  const store = place.open(applicationName === undefined ? {} : { applicationName });
  await store.migrate();
  return store;
}

describe.each(BACKENDS)('queued work wakes an idle dispatcher ($name)', (backend) => {
  it('in the same process: a message queued over the API leaves at once, and /healthz counts the wake-up', async () => {
    const store = await migrated(backend.place());
    // Nothing from the store's watch: only this process's own signal can wake the loop.
    const w = await startWorker(store, { watchQueued: false });
    try {
      const to = await consentingContact(store, w.sim);
      const queued = await postMessage(w.engine, to);
      expect(queued['decision'], JSON.stringify(queued)).toMatchObject({ kind: 'send' });
      const pass = await w.firstSend;
      expect(pass.outcome).toMatchObject({ result: { sent: 1 } });
      expect(w.sim.groundTruth().messages).toHaveLength(1);
      const health = (await w.engine.server.inject({ url: '/healthz' })).json<{ dispatch: { wake: unknown } }>();
      expect(health.dispatch.wake).toMatchObject({ count: expect.any(Number), across: null });
      expect((health.dispatch.wake as { count: number }).count).toBeGreaterThan(0);
    } finally {
      await w.stop();
    }
  });

  it('across processes: a message queued at the edge is sent by an idle worker, which says how it hears in /healthz', async () => {
    const place = backend.place();
    const edgeStore = await migrated(place);
    const workerStore = await migrated(place); // its own connection, as another process has
    const edge = await startEdge(edgeStore);
    const w = await startWorker(workerStore);
    try {
      await vi.waitFor(() => expect(w.engine.dispatchStatus()?.wake.across?.connected).toBe(true), { timeout: 10_000 });
      const to = await consentingContact(edgeStore, w.sim);
      await postMessage(edge, to);
      expect((await w.firstSend).outcome).toMatchObject({ result: { sent: 1 } });
      expect(edge.dispatchStatus()).toBeNull();
      const health = (await w.engine.server.inject({ url: '/healthz' })).json<{ dispatch: { wake: unknown } }>();
      expect(health.dispatch.wake).toMatchObject({
        across:
          backend.name === 'postgres' ? { by: 'notify', everyMs: null, connected: true } : { by: 'poll', everyMs: 500, connected: true },
      });
    } finally {
      await w.stop();
      await edge.stop();
    }
  });

  it('across processes: a campaign started from the command line beside an idle worker starts sending', async () => {
    const place = backend.place();
    const cliStore = await migrated(place);
    const w = await startWorker(await migrated(place));
    try {
      await vi.waitFor(() => expect(w.engine.dispatchStatus()?.wake.across?.connected).toBe(true), { timeout: 10_000 });
      const id = await utilityCampaign(cliStore, w.sim);
      expect(await startCampaign(cliStore, id, { phoneNumberId: PHONE_NUMBER_ID }, Date.now(), NO_DISPATCHER_HERE)).toMatchObject({
        inserted: 1,
      });
      expect((await w.firstSend).outcome).toMatchObject({ result: { sent: 1 } });
    } finally {
      await w.stop();
    }
  });

  it('across processes: a paused campaign resumed from the command line starts sending', async () => {
    const place = backend.place();
    const cliStore = await migrated(place);
    const w = await startWorker(await migrated(place));
    try {
      await vi.waitFor(() => expect(w.engine.dispatchStatus()?.wake.across?.connected).toBe(true), { timeout: 10_000 });
      const id = await utilityCampaign(cliStore, w.sim);
      await cliStore.setCampaignStatus(id, 'paused', 'held back by the test', Date.now());
      await startCampaign(cliStore, id, { phoneNumberId: PHONE_NUMBER_ID }, Date.now(), NO_DISPATCHER_HERE); // stays paused
      // PostgreSQL told the worker of the new rows; it found nothing to claim and sleeps again.
      // (SQLite's poll finds no work either: paused rows are not due.)
      if (backend.name === 'postgres')
        await vi.waitFor(
          () => expect(w.engine.dispatchStatus()).toMatchObject({ wake: { count: 1 }, running: null, next: { why: 'idle' } }),
          { timeout: 10_000 },
        );
      await campaignAction(cliStore, id, 'resume', Date.now(), NO_DISPATCHER_HERE);
      expect((await w.firstSend).outcome).toMatchObject({ result: { sent: 1 } });
    } finally {
      await w.stop();
    }
  });
});

/** A draft utility campaign to one consenting contact, as `pacer campaign create` leaves it. */
async function utilityCampaign(store: Store, sim: Simulator): Promise<number> {
  await consentingContact(store, sim);
  const now = Date.now();
  const [template] = await store.upsertTemplates(
    [{ name: 'order_update', language: 'en_US', category: 'utility', status: 'approved', quality: null, pausedUntil: null }],
    now,
  );
  const [senderId] = await store.upsertSenders(
    [
      {
        phoneNumberId: PHONE_NUMBER_ID,
        displayNumber: '+15550001111',
        qualityRating: 'GREEN',
        throughputMps: 10,
        messagingLimitTier: 'TIER_UNLIMITED',
        state: 'ok',
        stateReason: null,
        stateUntil: null,
      },
    ],
    now,
  );
  return store.createCampaign(
    {
      name: 'wake',
      templateId: template ?? -1,
      senderId: senderId ?? -1,
      segment: { consent: ['utility'] },
      scheduledAt: null,
      policyPreset: 'meta',
      status: 'draft',
    },
    now,
  );
}

describe('the PostgreSQL listener', () => {
  const postgres = BACKENDS.find((b) => b.name === 'postgres');
  if (postgres === undefined) throw new Error('no PostgreSQL backend');

  it('is opened again when its connection drops, and wakes the worker for work queued after', async () => {
    const place = postgres.place();
    const app = `pacer-wake-${randomBytes(4).toString('hex')}`;
    const edgeStore = await migrated(place);
    const edge = await startEdge(edgeStore);
    const w = await startWorker(await migrated(place, app));
    const admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    try {
      const listener = async (): Promise<number | null> => {
        const { rows } = await admin.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE application_name = $1', [
          `${app} listen`,
        ]);
        return rows[0]?.pid ?? null;
      };
      await vi.waitFor(async () => expect(await listener()).not.toBeNull(), { timeout: 10_000 });
      const dropped = await listener();
      await admin.query('SELECT pg_terminate_backend($1)', [dropped]);
      await vi.waitFor(
        async () => {
          const pid = await listener();
          expect(pid).not.toBeNull();
          expect(pid).not.toBe(dropped);
          expect(w.engine.dispatchStatus()?.wake.across?.connected).toBe(true);
        },
        { timeout: 15_000, interval: 100 },
      );
      const to = await consentingContact(edgeStore, w.sim);
      await postMessage(edge, to);
      expect((await w.firstSend).outcome).toMatchObject({ result: { sent: 1 } });
    } finally {
      await admin.end();
      await w.stop();
      await edge.stop();
    }
  });
});
