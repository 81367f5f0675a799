import path from 'node:path';
import { seededRandom } from '../src/adapters/simulator/prng.js';
import Database from 'better-sqlite3';
import pg from 'pg';
import {
  startSimulator,
  type MessageTruth,
  type Simulator,
  type SimulatorConfigInput,
  type SimUser,
} from '../src/adapters/simulator/index.js';
import { DEFAULT_SIMULATOR_CONFIG } from '../src/adapters/simulator/config.js';
import { onlyCountryWeights, type CountryCode } from '../src/adapters/simulator/countries.js';
import { SQLITE_FILE_NAME } from '../src/adapters/storage/open-store.js';
import { importContactRecords, type ContactRecord } from '../src/app/import-contact-records.js';
import { startCampaign, type StartCampaignResult } from '../src/app/start-campaign.js';
import { DEFAULT_POLICY, type Policy } from '../src/core/policy.js';
import type { Millis } from '../src/core/time.js';
import { startEngine, type CloudApiOptions, type Engine, type EngineOptions } from '../src/main/engine.js';
import { createTemplateApiClient } from '../src/adapters/cloud-api/template-api-client.js';
import type { TemplateApi } from '../src/ports/cloud-api.js';
import { VirtualClock } from '../src/ports/clock.js';
import type { Logger } from '../src/ports/logger.js';
import type { OutboxInput, OutboxRow, Store } from '../src/ports/store.js';
import type { Place, TestBackend } from './store-backends.js';
import { plainTemplates } from './plain-templates.js';

/**
 * Pacer as deployed (store, webhook server, inbox pump, dispatcher, breakers) against the Cloud API
 * simulator, all on one virtual clock: days pass in seconds and nothing sleeps.
 */
export const APP_SECRET = 'engine-test-secret';
export const MARKETING = 'spring_sale';
export const UTILITY = 'order_update';
// Off the whole second on purpose: webhook timestamps have whole seconds, production clocks do not.
const START: Millis = Date.UTC(2026, 2, 2, 8, 0, 0) + 437;

/**
 * The built-in policy without quiet hours: the rig's clock starts at 08:00 UTC, and quiet hours
 * would tie each test's counts to where its simulated recipients live. Tests of timing pass a
 * policy with them (DEFAULT_POLICY has them).
 */
export const ANY_HOUR_POLICY: Policy = { ...DEFAULT_POLICY, quietHours: null };

export interface RigOptions {
  sim?: SimulatorConfigInput;
  policy?: Policy;
  /** Who opted in to marketing (everyone opted in to utility). Default: everyone. */
  marketingConsent?: (u: SimUser) => boolean;
  /** Who has a recorded utility opt-in; the others have none recorded (neither granted nor revoked). Default: everyone. */
  utilityConsent?: (u: SimUser) => boolean;
  /** Each worker's own pace, and the sender's throughput unless `senderMps` says otherwise. */
  mps?: number;
  /** The sender number's throughput, which all workers share. */
  senderMps?: number;
  /** Worker processes sharing the store, each with its own connection; the first receives the webhooks. */
  workers?: number;
  /** The access token Pacer sends, when it is not the one the simulator accepts. */
  accessToken?: string;
  /** The engines' log; standard error at warn when absent. */
  logger?: Logger;
  /**
   * The first engine syncs templates from the simulator's business account (at start and after
   * template webhooks), or from the account named here.
   */
  templateSync?: boolean | { wabaId: string };
}

export interface Rig {
  clock: VirtualClock;
  sim: Simulator;
  store: Store;
  engine: Engine;
  policy: Policy;
  phoneNumberId: string;
  senderId: number;
  marketingTemplateId: number;
  /** Contact id per simulated user index. */
  contactIds: number[];
  /** Moves virtual time on; webhooks stored on the way are processed before it returns. */
  advance(ms: Millis): Promise<void>;
  createCampaign(name?: string): Promise<number>;
  startCampaign(id: number): Promise<StartCampaignResult>;
  /** Inserts one order update (utility, one-off) per user, due now. */
  sendUtility(users: readonly SimUser[], key: string): Promise<number>;
  /** Every outbox row of a campaign (or the one-offs, for null), read through the store port. */
  outbox(campaignId: number | null): Promise<OutboxRow[]>;
  contactOf(user: SimUser): number;
}

const SAME_DAY_AND_NIGHT = { readDelayFactor: 1, blockFactor: 1, reportFactor: 1 } as const;

/** Starts the whole world, runs `body`, and takes it down again whatever happens. */
export async function withRig(backend: TestBackend, options: RigOptions, body: (rig: Rig) => Promise<void>): Promise<void> {
  const place = backend.place();
  const store = place.open();
  await store.migrate();
  const clock = new VirtualClock(START);
  const policy = options.policy ?? ANY_HOUR_POLICY;
  const mps = options.mps ?? 80;
  const engines: Engine[] = [];
  // The simulator starts only once the first engine listens; the template sync begins after that.
  let templateApi: TemplateApi | null = null;
  const lazyTemplateApi: TemplateApi = {
    listTemplates: (wabaId, after) => templateApi!.listTemplates(wabaId, after),
    getTemplate: (id) => templateApi!.getTemplate(id),
    editTemplate: (id, edit) => templateApi!.editTemplate(id, edit),
    close: async () => templateApi?.close(),
  };
  const launch = async (k: number, workerStore: Store, cloudApi: EngineOptions['cloudApi']): Promise<Engine> => {
    const started = await startEngine({
      store: workerStore,
      clock,
      policy,
      random: seededRandom(7 + k),
      http: { host: '127.0.0.1', port: 0, appSecrets: [APP_SECRET], verifyToken: 'engine-test', mode: 'production' },
      worker: { owner: `engine-test-worker-${k}`, mps },
      cloudApi,
      ...(options.logger ? { logger: options.logger } : {}),
      ...(options.templateSync !== undefined && options.templateSync !== false && k === 0
        ? {
            templateSync: {
              api: lazyTemplateApi,
              wabaId:
                options.templateSync === true ? (options.sim?.wabaId ?? DEFAULT_SIMULATOR_CONFIG.wabaId) : options.templateSync.wabaId,
              everyMs: null,
            },
          }
        : {}),
    });
    engines.push(started);
    return started;
  };
  const sims: Simulator[] = [];
  const simApi = (s: Simulator): CloudApiOptions => ({
    baseUrl: s.url,
    apiVersion: 'v24.0',
    phoneNumberId: s.config.phoneNumberId,
    accessToken: options.accessToken ?? s.config.accessToken,
  });
  try {
    // The first worker receives the webhooks: the simulator starts once it listens, and posts to it.
    await launch(0, store, async (url) => {
      const s = await startSimulator(
        {
          seed: 11,
          templates: plainTemplates(),
          ...options.sim,
          population: { size: 300, ...options.sim?.population },
          // Engine tests sit near the quality thresholds with a few hundred users: the night's extra
          // blocks tip them. Their world keeps day and night alike unless a test sets its own night.
          reactions: { night: SAME_DAY_AND_NIGHT, ...options.sim?.reactions },
          appSecret: APP_SECRET,
          callbackUrl: `${url}/webhooks/whatsapp`,
        },
        { clock },
      );
      sims.push(s);
      templateApi = createTemplateApiClient({ baseUrl: s.url, apiVersion: 'v24.0', accessToken: s.config.accessToken, scheduler: clock });
      return simApi(s);
    });
    const [sim] = sims;
    if (sim === undefined) throw new Error('engine rig: the simulator did not start');
    for (let k = 1; k < (options.workers ?? 1); k++) await launch(k, place.open(), simApi(sim));
    const rig = await setUp(sim, store, engines, clock, policy, place, options, mps);
    await body(rig);
  } finally {
    for (const e of engines) await e.stop();
    for (const s of sims) await s.stop();
  }
}

async function setUp(
  sim: Simulator,
  store: Store,
  engines: readonly Engine[],
  clock: VirtualClock,
  policy: Policy,
  place: Place,
  options: RigOptions,
  mps: number,
): Promise<Rig> {
  const optedIn = options.marketingConsent ?? (() => true);
  const records: ContactRecord[] = sim.users.map((u) => ({
    phoneE164: `+${u.phone}`,
    name: u.name,
    tags: [],
    attributes: { country: u.country },
    consent: { marketing: optedIn(u), ...(options.utilityConsent?.(u) === false ? {} : { utility: true }) },
  }));
  const { ids: contactIds } = await importContactRecords(store, records, 'engine-test-import', policy, clock.now());
  const [marketingTemplateId] = await store.upsertTemplates(
    [
      { name: MARKETING, language: 'en_US', category: 'marketing', status: 'approved', quality: 'GREEN', pausedUntil: null },
      { name: UTILITY, language: 'en_US', category: 'utility', status: 'approved', quality: 'GREEN', pausedUntil: null },
    ],
    clock.now(),
  );
  const phoneNumberId = sim.config.phoneNumberId;
  const [senderId] = await store.upsertSenders(
    [
      {
        phoneNumberId,
        displayNumber: sim.config.displayPhoneNumber,
        qualityRating: 'GREEN',
        throughputMps: options.senderMps ?? mps,
        messagingLimitTier: 'TIER_UNLIMITED',
        state: 'ok',
        stateReason: null,
        stateUntil: null,
      },
    ],
    clock.now(),
  );
  const engine = engines[0];
  if (marketingTemplateId === undefined || senderId === undefined || engine === undefined) throw new Error('engine rig: setup failed');
  return {
    clock,
    sim,
    store,
    engine,
    policy,
    phoneNumberId,
    senderId,
    marketingTemplateId,
    contactIds,
    async advance(ms) {
      await sim.advance(ms);
      for (const e of engines) await e.pump.drain();
    },
    createCampaign: (name = 'Spring sale') =>
      store.createCampaign(
        {
          name,
          templateId: marketingTemplateId,
          senderId,
          segment: { consent: ['marketing'] },
          scheduledAt: clock.now(),
          policyPreset: 'meta',
          status: 'draft',
        },
        clock.now(),
      ),
    startCampaign: (id) => startCampaign(store, id, { phoneNumberId }, clock.now(), engine.signal),
    async sendUtility(users, key) {
      const rows: OutboxInput[] = users.map((u) => ({
        campaignId: null,
        contactId: contactIdOf(contactIds, u),
        senderId,
        category: 'utility',
        intent: { phoneNumberId, template: { name: UTILITY, language: 'en_US' } },
        idempotencyKey: `${key}-${u.index}`,
        nextAttemptAt: clock.now(),
      }));
      return (await store.insertOutbox(rows, clock.now())).inserted;
    },
    async outbox(campaignId) {
      const ids = await outboxIds(place, campaignId);
      const rows = await Promise.all(ids.map((id) => store.getOutbox(id)));
      return rows.filter((r): r is OutboxRow => r !== null);
    },
    contactOf: (u) => contactIdOf(contactIds, u),
  };
}

function contactIdOf(contactIds: readonly number[], u: SimUser): number {
  const id = contactIds[u.index];
  if (id === undefined) throw new Error(`engine rig: no contact for user ${u.index}`);
  return id;
}

/** The port has no outbox listing; the ids come from one read behind its back, the rows through it. */
export async function outboxIds(place: Place, campaignId: number | null): Promise<number[]> {
  const where = campaignId === null ? 'campaign_id IS NULL' : `campaign_id = ${Math.trunc(campaignId)}`;
  const sql = `SELECT id FROM outbox WHERE ${where} ORDER BY id`;
  const { dataDir, databaseUrl, schema } = place.options;
  if (databaseUrl !== undefined) {
    const client = new pg.Client({ connectionString: databaseUrl, options: `-c search_path=${schema ?? 'public'}` });
    await client.connect();
    try {
      return (await client.query<{ id: string }>(sql)).rows.map((r) => Number(r.id));
    } finally {
      await client.end();
    }
  }
  const db = new Database(path.join(dataDir ?? '.', SQLITE_FILE_NAME), { readonly: true });
  try {
    return (db.prepare(sql).all() as Array<{ id: number }>).map((r) => r.id);
  } finally {
    db.close();
  }
}

/** Weight 1 for these countries, 0 for the others. */
export function onlyCountries(...codes: CountryCode[]): Record<CountryCode, number> {
  return onlyCountryWeights(Object.fromEntries(codes.map((c) => [c, 1])));
}

/** Ground-truth messages Pacer sent for one outbox row, in order: `biz_opaque_callback_data` is `pacer:<id>`. */
export function attemptsByRow(messages: readonly MessageTruth[]): Map<number, MessageTruth[]> {
  const byRow = new Map<number, MessageTruth[]>();
  for (const m of [...messages].sort((a, b) => a.acceptedAt - b.acceptedAt)) {
    const id = /^pacer:(\d+)$/.exec(m.messageId ?? '')?.[1];
    if (id === undefined) continue;
    const list = byRow.get(Number(id)) ?? [];
    list.push(m);
    byRow.set(Number(id), list);
  }
  return byRow;
}

/** Marketing the simulator accepted from us, per recipient, oldest first. */
export function marketingByRecipient(messages: readonly MessageTruth[]): Map<string, MessageTruth[]> {
  const byTo = new Map<string, MessageTruth[]>();
  for (const m of [...messages].sort((a, b) => a.acceptedAt - b.acceptedAt)) {
    if (m.category !== 'marketing') continue;
    byTo.set(m.to, [...(byTo.get(m.to) ?? []), m]);
  }
  return byTo;
}

/** A row is settled (done) or waits for a time or a window (queued, held); never stuck mid-send. */
export function isFinalOrScheduled(row: OutboxRow): boolean {
  return row.status === 'done' || row.status === 'held' || row.status === 'queued' || (row.status === 'sent' && row.outcome !== null);
}
