import type { WorkQueued } from '../../ports/work-signal.js';
import { rmSync } from 'node:fs';
import {
  startSimulator,
  type GroundTruth,
  type Simulator,
  type SimulatorConfigInput,
  type SimUser,
} from '../../adapters/simulator/index.js';
import { openStore } from '../../adapters/storage/open-store.js';
import { createCampaign } from '../../app/create-campaign.js';
import { importContactRecords, type ContactRecord } from '../../app/import-contact-records.js';
import { queueOneOffBroadcast } from '../../app/queue-one-off-message.js';
import { startCampaign } from '../../app/start-campaign.js';
import { DEFAULT_POLICY, type Policy } from '../../core/policy.js';
import { DAY, type Millis } from '../../core/time.js';
import { VirtualClock } from '../../ports/clock.js';
import type { Store } from '../../ports/store.js';
import { startEngine } from '../engine.js';
import { consentsOf, hasOrderUpdate, type DemoPlan } from './demo-plan.js';
import { demoAttributes, ORDER_UPDATE_PARAMETERS, SPRING_SALE_PARAMETERS } from './demo-content.js';
import { createTemplateApiClient } from '../../adapters/cloud-api/template-api-client.js';
import { syncTemplates } from '../../app/sync-templates.js';
import { seededRandom } from '../../adapters/simulator/prng.js';

export interface PacerResult {
  truth: GroundTruth;
  store: Store;
  campaignId: number;
  webhooksStored: number;
  /** Contact id per simulated user index. */
  contactIds: number[];
  /** The simulated users (every peer world, on the same seed, has the same ones). */
  users: readonly SimUser[];
}

const APP_SECRET = 'demo-app-secret';

export interface PacerWorldOptions {
  dataDir: string;
  /** Print the HTTP server's errors. */
  logErrors: boolean;
  progress: (day: number) => void;
  /** Default: the installation's default policy. */
  policy?: Policy;
}

/** Pacer as deployed: SQLite, its real HTTP server on loopback, signed webhooks, the dispatcher. */
export async function runPacerWorld(
  plan: DemoPlan,
  simulator: SimulatorConfigInput,
  start: Millis,
  { dataDir, logErrors, progress, policy = DEFAULT_POLICY }: PacerWorldOptions,
): Promise<PacerResult> {
  const clock = new VirtualClock(start);
  rmSync(dataDir, { recursive: true, force: true });
  const store = openStore({ dataDir, backgroundCheckpoint: true });
  await store.migrate();

  // The server listens first, so the simulator knows where to post webhooks; the engine sends to it.
  let sim!: Simulator;
  const pacer = await startEngine({
    store,
    clock,
    policy,
    random: seededRandom(plan.seed),
    http: {
      host: '127.0.0.1',
      port: 0,
      appSecrets: [APP_SECRET],
      verifyToken: 'demo',
      mode: 'production',
      logLevel: logErrors ? 'error' : false,
    },
    // One process: nothing to share, so a whole second's throughput per pass (fewer passes).
    worker: { owner: 'demo-worker', mps: plan.mps, paceBurstMs: 1000 },
    batchInbox: true,
    cloudApi: async (url) => {
      sim = await startSimulator({ ...simulator, appSecret: APP_SECRET, callbackUrl: `${url}/webhooks/whatsapp` }, { clock });
      return { baseUrl: sim.url, apiVersion: 'v24.0', phoneNumberId: sim.config.phoneNumberId, accessToken: sim.config.accessToken };
    },
  });

  // The audience: the simulated users, with consent as the business collected it.
  const records: ContactRecord[] = sim.users.map((u, i) => ({
    phoneE164: `+${u.phone}`,
    name: u.name,
    tags: [],
    attributes: demoAttributes(u, i),
    consent: consentsOf(plan, i),
  }));
  const contactIds: number[] = [];
  for (let i = 0; i < records.length; i += 5000)
    contactIds.push(...(await importContactRecords(store, records.slice(i, i + 5000), 'demo-import', policy, start)).ids);
  // Templates come from the business account, as `pacer template sync` reads them: Meta's categories and placeholders.
  const templateApi = createTemplateApiClient({
    baseUrl: sim.url,
    apiVersion: 'v24.0',
    accessToken: sim.config.accessToken,
    scheduler: clock,
  });
  const synced = await syncTemplates({ store, api: templateApi, now: () => clock.now() }, sim.config.wabaId);
  await templateApi.close();
  if (!synced.ok) throw new Error(`demo: template sync failed (${synced.reason})`);
  const phoneNumberId = sim.config.phoneNumberId;
  // The campaign goes to the contacts who opted in to marketing (the default for a marketing template).
  const created = await createCampaign(
    store,
    {
      name: 'Spring sale',
      template: { name: plan.marketing.template, language: plan.marketing.language },
      parameters: SPRING_SALE_PARAMETERS,
      segment: {},
      scheduledAt: start + plan.marketing.at,
      sender: {
        phoneNumberId,
        displayNumber: sim.config.displayPhoneNumber,
        qualityRating: 'GREEN',
        throughputMps: plan.mps,
        messagingLimitTier: 'TIER_UNLIMITED',
      },
    },
    start,
  );
  if (!created.ok)
    throw new Error(
      `demo: campaign refused (${created.problem}${'issues' in created ? `: ${created.issues.map((i) => i.message).join('; ')}` : ''})`,
    );
  const campaignId = created.campaign.id;

  clock.at(start + plan.marketing.at, () =>
    startCampaign(store, campaignId, { phoneNumberId }, clock.now(), pacer.signal).then(() => undefined),
  );
  plan.utility.forEach((u, k) =>
    clock.at(start + u.at, () => sendOrderUpdates(store, contactIds, plan, k, { phoneNumberId, now: clock.now(), signal: pacer.signal })),
  );

  for (let day = 1; day <= plan.days; day++) {
    await sim.advance(DAY);
    await pacer.pump.drain();
    progress(day);
  }
  const truth = sim.groundTruth();
  const webhooksStored = pacer.server.pacerMetrics.webhookStored;
  await pacer.stop();
  await sim.stop();
  return { truth, store, campaignId, webhooksStored, contactIds, users: sim.users };
}

/** Order updates are one-off utility messages to a share of the audience: they pass the same decision as the campaign. */
async function sendOrderUpdates(
  store: Store,
  contactIds: readonly number[],
  plan: DemoPlan,
  k: number,
  at: { phoneNumberId: string; now: Millis; signal: WorkQueued },
): Promise<void> {
  const u = plan.utility[k];
  if (u === undefined) return;
  const recipients = contactIds.flatMap((contactId, i) =>
    hasOrderUpdate(plan, k, i) ? [{ contactId, idempotencyKey: `order-update-${k}-${i}` }] : [],
  );
  const r = await queueOneOffBroadcast(
    store,
    recipients,
    {
      category: 'utility',
      template: { name: u.template, language: u.language, parameters: ORDER_UPDATE_PARAMETERS },
      phoneNumberId: at.phoneNumberId,
    },
    at.now,
    at.signal,
  );
  if (!r.ok) throw new Error(`demo: order update refused (${r.problem})`);
}
