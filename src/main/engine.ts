import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { createCloudApiClient } from '../adapters/cloud-api/cloud-api-client.js';
import { buildApp } from '../adapters/http/build-app.js';
import type { HttpLogLevel } from '../adapters/http/log-options.js';
import { stderrLogger } from '../adapters/logging/stderr-logger.js';
import { parseWebhook } from '../adapters/webhook/parse-webhook.js';
import { startDispatchLoop, type DispatchLoop } from '../app/dispatch-loop.js';
import type { DispatchStatus } from '../app/dispatch-status.js';
import type { HttpEdgeSettings } from '../adapters/http/server-limits.js';
import { Dispatcher, type TickResult } from '../app/dispatcher.js';
import { InboxPump } from '../app/inbox-pump.js';
import { startTemplateSyncLoop, type TemplateSyncLoop } from '../app/template-sync-loop.js';
import type { Policy } from '../core/policy.js';
import { MINUTE, type Millis } from '../core/time.js';
import type { CloudApi, TemplateApi } from '../ports/cloud-api.js';
import type { Scheduler } from '../ports/clock.js';
import { errorFields, type Logger } from '../ports/logger.js';
import type { Store } from '../ports/store.js';
import type { QueuedWatch, WorkSignal } from '../ports/work-signal.js';
import { createWorkSignal } from '../app/work-signal.js';

export interface EngineOptions {
  /** Apply stored webhooks only before each dispatcher pass (for virtual-time runs). */
  batchInbox?: boolean;
  /**
   * A worker that receives no webhooks: the edge applies them as they arrive, so this process only
   * looks for any left unapplied every `inboxEveryMs`, instead of before each pass (where several
   * workers would repeat the edge's work on every pass).
   */
  inboxEveryMs?: Millis;
  store: Store;
  clock: Scheduler;
  policy: Policy;
  random: () => number;
  http: {
    host: string;
    port: number;
    appSecrets: readonly string[];
    verifyToken: string | null;
    mode: 'production' | 'development';
    logLevel?: HttpLogLevel | false;
    edge?: HttpEdgeSettings;
  };
  /**
   * `mps`: this process's own ceiling. Every process also takes from the sender number's shared
   * throughput bucket in the store, at most `paceBurstMs` (default 100 ms) of it per pass.
   */
  worker: { owner: string; mps: number; paceBurstMs?: number; leaseMs?: number };
  /** REST API: PACER_ADMIN_TOKEN and the number one-off messages go from (WHATSAPP_PHONE_NUMBER_ID). */
  api?: { adminToken: string | null; phoneNumberId: string | null };
  /**
   * The Cloud API (Meta's, or the simulator) to send through; without it the engine only receives
   * (`serve --no-dispatch`, or no credentials) and runs no dispatcher or campaign checks. A function
   * is called once the server listens, with its URL: a simulator posting webhooks back needs it first.
   */
  cloudApi?: CloudApiOptions | ((url: string) => Promise<CloudApiOptions>);
  /** The engine's own log (the HTTP server has its own); standard error at `warn` by default. */
  logger?: Logger;
  /**
   * Template sync from the WhatsApp Business Account: at start, every `everyMs`, and per template
   * when a webhook changes one. The engine closes `api` when it stops.
   */
  templateSync?: { api: TemplateApi; wabaId: string; everyMs: Millis | null };
  /**
   * Hear of work other processes queue (Store.watchQueued: LISTEN/NOTIFY, or SQLite's data version
   * every 500 ms); default true. Work queued in this process wakes the loop either way.
   */
  watchQueued?: boolean;
}

/** Pacer's moving parts wired together: webhook server, inbox processor, dispatcher, breakers. */
export interface Engine {
  server: FastifyInstance;
  /** Where the server listens, e.g. for the webhook callback `${url}/webhooks/whatsapp`. */
  url: string;
  pump: InboxPump;
  /** One dispatcher pass now (tests drive it directly); the engine must dispatch (`cloudApi`). */
  tick(): Promise<TickResult>;
  /** What the dispatcher loop is doing; null in an engine that does not dispatch. */
  dispatchStatus(): DispatchStatus | null;
  /** The dispatcher loop itself (its `onPass`/`nextPass` let tests await passes); null without `cloudApi`. */
  loop: DispatchLoop | null;
  /** The template sync; null when no business account is configured. */
  templates: TemplateSyncLoop | null;
  /** Where this process's use cases say they queued work (the API, dashboard, demo): it wakes the loop. */
  signal: WorkSignal;
  stop(): Promise<void>;
}

export interface CloudApiOptions {
  baseUrl: string;
  apiVersion: string;
  phoneNumberId: string;
  accessToken: string;
}

const PACE_BURST_MS = 100;

export async function startEngine(o: EngineOptions): Promise<Engine> {
  const { store, clock, policy, random } = o;
  const logger = o.logger ?? stderrLogger({ level: 'warn' });
  const signal = createWorkSignal();
  let templates: TemplateSyncLoop | null = null;
  const pump = new InboxPump(
    { store, policy, clock, random, parse: parseWebhook, logger, signal, onTemplateChanged: (id) => templates?.refresh(id) },
    (error) => logger.error('inbox processing failed', errorFields(error)),
    o.batchInbox === true ? null : { scheduler: clock },
  );
  // Set once, below, when the engine dispatches; /healthz reports null until then.
  let loop: DispatchLoop | null = null;
  const dispatchStatus = (): DispatchStatus | null => loop?.status() ?? null;
  const logLevel = o.http.logLevel ?? false;
  const server = await buildApp({
    store,
    clock,
    policy,
    dispatchStatus,
    signal,
    logger: logLevel === false ? false : { level: logLevel },
    config: {
      appSecrets: o.http.appSecrets,
      verifyToken: o.http.verifyToken,
      mode: o.http.mode,
      host: o.http.host,
      adminToken: o.api?.adminToken ?? null,
      phoneNumberId: o.api?.phoneNumberId ?? null,
      edge: o.http.edge,
    },
    // Real time: apply webhooks as soon as they are stored. Virtual time (the demo) applies them in
    // batches before each dispatcher pass instead: the same order of effects, far fewer commits.
    onStored: o.batchInbox === true ? undefined : () => pump.kick(),
    onReplay: () => pump.kick(),
  });
  await server.listen({ host: o.http.host, port: o.http.port });
  const url = `http://${o.http.host}:${(server.server.address() as AddressInfo).port}`;
  // What a crash left stored but unapplied is applied now, not when the next webhook arrives.
  if (o.batchInbox !== true) pump.kick();

  let api: CloudApi | null = null;
  let watch: QueuedWatch | null = null;
  if (o.cloudApi !== undefined) {
    const cloud =
      typeof o.cloudApi === 'function'
        ? await o.cloudApi(url).catch(async (error: unknown) => {
            await server.close();
            throw error;
          })
        : o.cloudApi;
    api = createCloudApiClient({ ...cloud, capCodes: policy.capCodes, maxConcurrency: 32 });
    const paceBurstMs = o.worker.paceBurstMs ?? PACE_BURST_MS;
    const dispatcher = new Dispatcher(
      { store, api, policy, clock, random, logger },
      {
        owner: o.worker.owner,
        phoneNumberId: cloud.phoneNumberId,
        mps: o.worker.mps,
        leaseMs: o.worker.leaseMs ?? MINUTE,
        batchSize: o.worker.mps,
        pace: { phoneNumberId: cloud.phoneNumberId, burstMs: paceBurstMs },
      },
    );
    // This process sends its own number's rows only: it sleeps until the next of those, and hears of those.
    const own = { phoneNumberId: cloud.phoneNumberId };
    // Other processes' work arrives through the store's watch and wakes the loop like this process's own.
    watch = o.watchQueued === false ? null : store.watchQueued((at) => signal.notifyQueued(at), own);
    loop = startDispatchLoop(
      { store, clock, policy, dispatcher, pump, logger, signal, watch },
      { paceBurstMs, inboxEveryMs: o.inboxEveryMs, work: own },
    );
  }
  // After the Cloud API is up: a simulator it names serves the templates too.
  if (o.templateSync !== undefined) templates = startTemplateSyncLoop({ store, scheduler: clock, logger, ...o.templateSync });
  const templateSync = templates;
  const running = loop;
  return {
    server,
    url,
    pump,
    dispatchStatus,
    loop: running,
    templates: templateSync,
    signal,
    tick: () => {
      if (running === null) return Promise.reject(new Error('engine: not dispatching (no cloudApi given)'));
      return running.tick();
    },
    async stop() {
      await watch?.close();
      await running?.stop();
      await pump.drain();
      await pump.stop();
      await templateSync?.stop();
      await o.templateSync?.api.close();
      await api?.close();
      await server.close();
    },
  };
}
