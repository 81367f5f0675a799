import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { createCloudApiClient } from '../adapters/cloud-api/cloud-api-client.js';
import { createWebhookSender } from '../adapters/event-webhooks/webhook-sender.js';
import { buildApp } from '../adapters/http/build-app.js';
import type { HttpLogLevel } from '../adapters/http/log-options.js';
import { stderrLogger } from '../adapters/logging/stderr-logger.js';
import { parseWebhook } from '../adapters/webhook/parse-webhook.js';
import { startDispatchLoop, type DispatchLoop } from '../app/dispatch-loop.js';
import { startEventDeliveryLoop, type EventDeliveryLoop } from '../app/event-delivery-loop.js';
import { startEventPruning } from '../app/prune-events.js';
import { wakeOnRecord } from '../app/event-delivery-wake.js';
import type { DeliveryRetrySettings } from '../core/event-retry.js';
import type { DispatchStatus } from '../app/dispatch-status.js';
import type { HttpEdgeSettings } from '../adapters/http/server-limits.js';
import { Dispatcher, type TickResult } from '../app/dispatcher.js';
import { PortfolioLedger } from '../app/number-pacing.js';
import { InboxPump } from '../app/inbox-pump.js';
import { startTemplateSyncLoop, type TemplateSyncLoop } from '../app/template-sync-loop.js';
import type { Policy } from '../core/policy.js';
import { MINUTE, SECOND, type Millis } from '../core/time.js';
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
  api?: { adminToken: string | null; phoneNumberId: string | null; idempotencyTtlMs?: number };
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
  /**
   * Deliver outbound events to subscribers on a loop of its own (never inside a send's
   * transaction); absent: this process delivers none (others sharing the database may).
   */
  events?: {
    concurrency: number;
    timeoutMs: Millis;
    pollMs: Millis;
    retry: DeliveryRetrySettings;
    /** How long events are kept once nothing is owed on them; null or absent: for ever. */
    retentionMs?: Millis | null;
  };
}

/** Pacer's moving parts wired together: webhook server, inbox processor, dispatcher, breakers. */
export interface Engine {
  server: FastifyInstance;
  /** Where the server listens, e.g. for the webhook callback `${url}/webhooks/whatsapp`. */
  url: string;
  pump: InboxPump;
  /** One dispatcher pass of every number now, summed (tests drive it directly); the engine must dispatch (`cloudApi`). */
  tick(): Promise<TickResult>;
  /** What the dispatcher loop is doing; null in an engine that does not dispatch. */
  dispatchStatus(): DispatchStatus | null;
  /** The default number's dispatcher loop (its `onPass`/`nextPass` let tests await passes); null without `cloudApi`. */
  loop: DispatchLoop | null;
  /** Every number's loop, by phone-number id, the default number's first. */
  loops: ReadonlyMap<string, DispatchLoop>;
  /** The template sync; null when no business account is configured. */
  templates: TemplateSyncLoop | null;
  /** Where this process's use cases say they queued work (the API, dashboard, demo): it wakes the loop. */
  signal: WorkSignal;
  /** The outbound event delivery loop; null when this process delivers none. */
  events: EventDeliveryLoop | null;
  stop(): Promise<void>;
}

export interface CloudApiOptions {
  baseUrl: string;
  apiVersion: string;
  /** The default number: one-off messages and campaigns that name none go from it. */
  phoneNumberId: string;
  accessToken: string;
  /** The other numbers this process sends from, each with its own account's token. */
  otherNumbers?: readonly { phoneNumberId: string; accessToken: string }[];
}

const PACE_BURST_MS = 100;

export async function startEngine(o: EngineOptions): Promise<Engine> {
  const { clock, policy, random } = o;
  const logger = o.logger ?? stderrLogger({ level: 'warn' });
  // Delivering events: what this process records wakes the delivery loop as it commits.
  const delivery = o.events === undefined ? null : startEventDelivery(o, logger);
  const store = delivery === null ? o.store : wakeOnRecord(o.store, () => delivery.loop.kick());
  const signal = createWorkSignal();
  let templates: TemplateSyncLoop | null = null;
  const pump = new InboxPump(
    { store, policy, clock, random, parse: parseWebhook, logger, signal, onTemplateChanged: (id) => templates?.refresh(id) },
    (error) => logger.error('inbox processing failed', errorFields(error)),
    o.batchInbox === true ? null : { scheduler: clock },
  );
  // Set below when the engine dispatches, one loop per number; /healthz reports null until then.
  let loops = new Map<string, DispatchLoop>();
  const dispatchStatus = (): DispatchStatus | null => [...loops.values()][0]?.status() ?? null;
  const dispatchByNumber = (): Record<string, DispatchStatus> => Object.fromEntries([...loops].map(([id, l]) => [id, l.status()]));
  const logLevel = o.http.logLevel ?? false;
  const server = await buildApp({
    store,
    clock,
    policy,
    dispatchStatus,
    dispatchByNumber,
    signal,
    logger: logLevel === false ? false : { level: logLevel },
    config: {
      appSecrets: o.http.appSecrets,
      verifyToken: o.http.verifyToken,
      mode: o.http.mode,
      host: o.http.host,
      adminToken: o.api?.adminToken ?? null,
      phoneNumberId: o.api?.phoneNumberId ?? null,
      ...(o.api?.idempotencyTtlMs !== undefined ? { idempotencyTtlMs: o.api.idempotencyTtlMs } : {}),
      edge: o.http.edge,
    },
    // Real time: apply webhooks as soon as they are stored. Virtual time (the demo) applies them in
    // batches before each dispatcher pass instead: the same order of effects, far fewer commits.
    onStored: o.batchInbox === true ? undefined : () => pump.kick(),
    onReplay: () => pump.kick(),
    templateAccount: o.templateSync === undefined ? null : { wabaId: o.templateSync.wabaId, api: o.templateSync.api },
  });
  await server.listen({ host: o.http.host, port: o.http.port });
  const url = `http://${o.http.host}:${(server.server.address() as AddressInfo).port}`;
  // What a crash left stored but unapplied is applied now, not when the next webhook arrives.
  if (o.batchInbox !== true) pump.kick();

  const apis: CloudApi[] = [];
  loops = new Map<string, DispatchLoop>();
  let watch: QueuedWatch | null = null;
  if (o.cloudApi !== undefined) {
    const cloud =
      typeof o.cloudApi === 'function'
        ? await o.cloudApi(url).catch(async (error: unknown) => {
            await server.close();
            throw error;
          })
        : o.cloudApi;
    const paceBurstMs = o.worker.paceBurstMs ?? PACE_BURST_MS;
    const numbers = numbersOf(cloud);
    // One portfolio limit per business portfolio, whichever of its numbers sends: shared by them all.
    const ledger = new PortfolioLedger();
    // Other processes' work arrives through the store's watch and wakes the loops like this process's own.
    // A process sending from one number hears of that number's work only.
    const heard = numbers.length === 1 ? { phoneNumberId: cloud.phoneNumberId } : undefined;
    watch = o.watchQueued === false ? null : store.watchQueued((at) => signal.notifyQueued(at), heard);
    for (const [i, number] of numbers.entries()) {
      // Each number its own client (its account's token), dispatcher, throughput bucket and loop:
      // a row is only ever sent from the number it belongs to.
      const api = createCloudApiClient({ ...cloud, ...number, capCodes: policy.capCodes, maxConcurrency: 32 });
      apis.push(api);
      const dispatcher = new Dispatcher(
        { store, api, policy, clock, random, logger, ledger },
        {
          owner: o.worker.owner,
          phoneNumberId: number.phoneNumberId,
          mps: o.worker.mps,
          leaseMs: o.worker.leaseMs ?? MINUTE,
          batchSize: o.worker.mps,
          pace: { phoneNumberId: number.phoneNumberId, burstMs: paceBurstMs },
        },
      );
      // This loop sends its own number's rows only: it sleeps until the next of those.
      const own = { phoneNumberId: number.phoneNumberId };
      loops.set(
        number.phoneNumberId,
        startDispatchLoop(
          { store, clock, policy, dispatcher, pump, logger, signal, watch },
          // The campaign checks are the whole installation's: one loop runs them.
          { paceBurstMs, inboxEveryMs: o.inboxEveryMs, work: own, checks: i === 0 },
        ),
      );
    }
  }
  // After the Cloud API is up: a simulator it names serves the templates too.
  if (o.templateSync !== undefined) templates = startTemplateSyncLoop({ store, scheduler: clock, logger, ...o.templateSync });
  const templateSync = templates;
  const running = [...loops.values()];
  return {
    server,
    url,
    pump,
    dispatchStatus,
    loop: running[0] ?? null,
    loops,
    templates: templateSync,
    signal,
    events: delivery?.loop ?? null,
    tick: async () => {
      if (running.length === 0) throw new Error('engine: not dispatching (no cloudApi given)');
      const results: TickResult[] = [];
      for (const l of running) results.push(await l.tick());
      return sumTicks(results);
    },
    async stop() {
      await watch?.close();
      await Promise.all(running.map((l) => l.stop()));
      await delivery?.stop();
      await pump.drain();
      await pump.stop();
      await templateSync?.stop();
      await o.templateSync?.api.close();
      await Promise.all(apis.map((a) => a.close()));
      await server.close();
    },
  };
}

/**
 * The event delivery loop and its HTTP client. A claim outlasts the slowest request twice over, so
 * a live worker never loses one mid-request; a dead one's come back within it.
 */
function startEventDelivery(o: EngineOptions, logger: Logger): { loop: EventDeliveryLoop; stop(): Promise<void> } {
  const events = o.events;
  if (events === undefined) throw new Error('engine: no event delivery settings');
  const sender = createWebhookSender({ timeoutMs: events.timeoutMs });
  const loop = startEventDeliveryLoop(
    { store: o.store, sender, scheduler: o.clock, logger, random: o.random },
    {
      owner: `${o.worker.owner}-events`,
      concurrency: events.concurrency,
      leaseMs: Math.max(30 * SECOND, 2 * events.timeoutMs + 5 * SECOND),
      pollMs: events.pollMs,
      retry: events.retry,
    },
  );
  const retentionMs = events.retentionMs ?? null;
  const pruning = retentionMs === null ? null : startEventPruning({ store: o.store, scheduler: o.clock, logger }, retentionMs);
  return {
    loop,
    async stop() {
      await pruning?.stop();
      await loop.stop();
      await sender.close();
    },
  };
}

/** The numbers a process sends from, each once: the default number first. */
function numbersOf(cloud: CloudApiOptions): { phoneNumberId: string; accessToken: string }[] {
  const all = [{ phoneNumberId: cloud.phoneNumberId, accessToken: cloud.accessToken }, ...(cloud.otherNumbers ?? [])];
  return all.filter((n, i) => all.findIndex((m) => m.phoneNumberId === n.phoneNumberId) === i);
}

/** One pass of every number's loop, as one result. */
function sumTicks(results: readonly TickResult[]): TickResult {
  const [first, ...rest] = results;
  if (first === undefined) throw new Error('engine: no dispatcher');
  const total = { ...first };
  for (const r of rest) {
    for (const k of Object.keys(total) as (keyof TickResult)[]) {
      if (k === 'pacedUntil') total.pacedUntil = minOrNull(total.pacedUntil, r.pacedUntil);
      else total[k] += r[k];
    }
  }
  return total;
}

const minOrNull = (a: Millis | null, b: Millis | null): Millis | null => (a === null ? b : b === null ? a : Math.min(a, b));
