import { rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { createCloudApiClient } from '../../adapters/cloud-api/cloud-api-client.js';
import { buildHttpServer } from '../../adapters/http/build-server.js';
import { startSimulator, type GroundTruth, type SimulatorConfigInput } from '../../adapters/simulator/index.js';
import { openStore } from '../../adapters/storage/open-store.js';
import { Dispatcher } from '../../app/dispatcher.js';
import { importContactRecords, type ContactRecord } from '../../app/import-contact-records.js';
import { InboxPump } from '../../app/inbox-pump.js';
import { checkBreakers } from '../../app/check-breakers.js';
import { startCampaign } from '../../app/start-campaign.js';
import { DEFAULT_POLICY, type Policy } from '../../core/policy.js';
import { MINUTE, SECOND, type Millis } from '../../core/time.js';
import { VirtualClock } from '../../ports/clock.js';
import type { OutboxInput, Store } from '../../ports/store.js';
import { inShare, type DemoPlan } from './demo-plan.js';
import { seededRandom } from './seeded-random.js';

export interface PacerResult {
  truth: GroundTruth;
  store: Store;
  dataDir: string;
  campaignId: number;
  webhooksStored: number;
}

const APP_SECRET = 'demo-app-secret';
const IDLE_POLL = 5 * MINUTE;

/** An idle worker sleeps until the next row falls due, looking again at least every few minutes. */
async function idleUntil(store: Store, now: Millis): Promise<Millis> {
  const due = await store.nextDueAt();
  return due !== null && due > now ? Math.min(due, now + IDLE_POLL) : now + IDLE_POLL;
}

/** Pacer as deployed: SQLite, its real HTTP server on loopback, signed webhooks, the dispatcher. */
export async function runPacerWorld(plan: DemoPlan, simulator: SimulatorConfigInput, start: Millis, dataDir: string, progress: (day: number) => void): Promise<PacerResult> {
  const clock = new VirtualClock(start);
  const policy: Policy = DEFAULT_POLICY;
  const random = seededRandom(plan.seed);
  rmSync(dataDir, { recursive: true, force: true });
  const store = openStore({ dataDir });
  await store.migrate();

  const pump = new InboxPump({ store, policy, clock, random }, (error) => process.stderr.write(`inbox: ${String(error)}\n`));
  const server = buildHttpServer({ store, clock, logger: process.env.DEMO_LOG ? { level: 'error' } : false, config: { appSecrets: [APP_SECRET], verifyToken: 'demo', mode: 'production' }, onStored: () => pump.kick() });
  await server.listen({ host: '127.0.0.1', port: 0 });
  const url = `http://127.0.0.1:${(server.server.address() as AddressInfo).port}`;
  const sim = await startSimulator({ ...simulator, appSecret: APP_SECRET, callbackUrl: `${url}/webhooks/whatsapp` }, { clock });
  const api = createCloudApiClient({ baseUrl: sim.url, apiVersion: 'v24.0', phoneNumberId: sim.config.phoneNumberId, accessToken: sim.config.accessToken, maxConcurrency: 32 });

  // The audience: the simulated users, with consent as the business collected it.
  const records: ContactRecord[] = sim.users.map((u, i) => ({
    phoneE164: `+${u.phone}`, name: u.name, tags: [], attributes: { country: u.country },
    consent: { marketing: inShare(i, 1, plan.marketingOptIn), utility: true },
  }));
  const contactIds: number[] = [];
  for (let i = 0; i < records.length; i += 5000) contactIds.push(...(await importContactRecords(store, records.slice(i, i + 5000), 'demo-import', policy, start)).ids);
  const [marketingId, utilityId] = await store.upsertTemplates([
    { name: plan.marketing.template, language: plan.marketing.language, category: 'marketing', status: 'approved', quality: 'GREEN', pausedUntil: null },
    { name: plan.utility[0]?.template ?? 'order_update', language: 'en_US', category: 'utility', status: 'approved', quality: 'GREEN', pausedUntil: null },
  ], start);
  const phoneNumberId = sim.config.phoneNumberId;
  const [senderId] = await store.upsertSenders([{ phoneNumberId, displayNumber: sim.config.displayPhoneNumber, qualityRating: 'GREEN', throughputMps: plan.mps, messagingLimitTier: 'TIER_UNLIMITED', state: 'ok', stateReason: null, stateUntil: null }], start);
  if (marketingId === undefined || utilityId === undefined || senderId === undefined) throw new Error('demo: setup failed');
  const campaignId = await store.createCampaign({ name: 'Spring sale', templateId: marketingId, senderId, segment: { consent: ['marketing'] }, scheduledAt: start + plan.marketing.at, policyPreset: 'meta', status: 'draft' }, start);

  const dispatcher = new Dispatcher({ store, api, policy, clock, random }, { owner: 'demo-worker', mps: plan.mps, leaseMs: MINUTE, batchSize: plan.mps });
  const tick = async (): Promise<void> => {
    await pump.drain();
    const r = await dispatcher.tick();
    clock.at(r.claimed > 0 ? clock.now() + SECOND : await idleUntil(store, clock.now()), tick);
  };
  clock.at(start + plan.marketing.at, () => startCampaign(store, campaignId, { phoneNumberId }, clock.now()).then(() => undefined));
  plan.utility.forEach((u, k) => clock.at(start + u.at, async () => {
    const rows: OutboxInput[] = [];
    contactIds.forEach((contactId, i) => {
      if (inShare(i, 100 + k, u.share)) {
        rows.push({ campaignId: null, contactId, senderId, category: 'utility', intent: { phoneNumberId, template: { name: u.template, language: u.language } }, idempotencyKey: `order-update-${k}-${i}`, nextAttemptAt: clock.now() });
      }
    });
    await store.insertOutbox(rows, clock.now());
  }));
  clock.at(start, tick);
  const breakers = async (): Promise<void> => {
    await checkBreakers(store, policy, clock.now());
    clock.at(clock.now() + 10 * MINUTE, breakers);
  };
  clock.at(start, breakers);

  for (let day = 1; day <= plan.days; day++) {
    await sim.advance(24 * 3600 * SECOND);
    await pump.drain();
    progress(day);
  }
  const truth = sim.groundTruth();
  const webhooksStored = server.pacerMetrics.webhookStored;
  await api.close();
  await sim.stop();
  await server.close();
  return { truth, store, dataDir, campaignId, webhooksStored };
}
