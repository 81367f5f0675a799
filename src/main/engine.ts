import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { createCloudApiClient } from '../adapters/cloud-api/cloud-api-client.js';
import { buildHttpServer } from '../adapters/http/build-server.js';
import { operatorApi } from '../adapters/http/api/operator-api.js';
import { dashboard } from '../adapters/http/dashboard/dashboard-plugin.js';
import type { HttpLogLevel } from '../adapters/http/log-options.js';
import type { HttpEdgeSettings } from '../adapters/http/server-limits.js';
import { checkBreakers } from '../app/check-breakers.js';
import { completeFinishedCampaigns } from '../app/complete-campaigns.js';
import { Dispatcher, type TickResult } from '../app/dispatcher.js';
import { DispatchTracker, type DispatchStatus, type NextPassReason } from '../app/dispatch-status.js';
import { InboxPump } from '../app/inbox-pump.js';
import type { Policy } from '../core/policy.js';
import { MINUTE, SECOND, type Millis } from '../core/time.js';
import type { CloudApi } from '../ports/cloud-api.js';
import type { Scheduler, Timer } from '../ports/clock.js';
import type { Store } from '../ports/store.js';

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
  http: { host: string; port: number; appSecrets: readonly string[]; verifyToken: string | null; mode: 'production' | 'development'; logLevel?: HttpLogLevel | false; edge?: HttpEdgeSettings };
  /**
   * `mps`: this process's own ceiling. Every process also takes from the sender number's shared
   * throughput bucket in the store, at most `paceBurstMs` (default 100 ms) of it per pass.
   */
  worker: { owner: string; mps: number; paceBurstMs?: number; leaseMs?: number };
  /** REST API: PACER_ADMIN_TOKEN and the number one-off messages go from (WHATSAPP_PHONE_NUMBER_ID). */
  api?: { adminToken: string | null; phoneNumberId: string | null };
}

/** Pacer's moving parts wired together: webhook server, inbox processor, dispatcher, breakers. */
export interface Engine {
  server: FastifyInstance;
  /** Where the server listens, e.g. for the webhook callback `${url}/webhooks/whatsapp`. */
  url: string;
  pump: InboxPump;
  /** Connects to the Cloud API (Meta's, or the simulator) and starts the dispatcher and breaker loops. */
  start(api: ApiOptions): void;
  /** One dispatcher pass now (tests drive it directly); needs `start` first. */
  tick(): Promise<TickResult>;
  /** What the dispatcher loop is doing; null before `start` (or with `--no-dispatch`). */
  dispatchStatus(): DispatchStatus | null;
  stop(): Promise<void>;
}

export interface ApiOptions {
  baseUrl: string;
  apiVersion: string;
  phoneNumberId: string;
  accessToken: string;
}

const IDLE_POLL = 5 * MINUTE;
const BREAKER_EVERY = 10 * MINUTE;
const RETRY_AFTER_FAILURE = 5 * SECOND;
const MIN_PACED_WAIT = 10;
const DUE_RECHECK = 100;
const PACE_BURST_MS = 100;

export async function startEngine(o: EngineOptions): Promise<Engine> {
  const { store, clock, policy, random } = o;
  const pump = new InboxPump({ store, policy, clock, random }, (error) => process.stderr.write(`pacer: inbox processing failed: ${String(error)}\n`));
  const logLevel = o.http.logLevel ?? false;
  let api: CloudApi | null = null;
  let dispatcher: Dispatcher | null = null;
  const tracker = new DispatchTracker(() => clock.now());
  const dispatchStatus = (): DispatchStatus | null => (dispatcher === null ? null : tracker.report(dispatcher.progress()));
  const server = buildHttpServer({
    store, clock, dispatchStatus,
    logger: logLevel === false ? false : { level: logLevel },
    config: { appSecrets: o.http.appSecrets, verifyToken: o.http.verifyToken, mode: o.http.mode, edge: o.http.edge },
    // Real time: apply webhooks as soon as they are stored. Virtual time (the demo) applies them in
    // batches before each dispatcher pass instead: the same order of effects, far fewer commits.
    onStored: o.batchInbox === true ? undefined : () => pump.kick(),
  });
  const apiConfig = { adminToken: o.api?.adminToken ?? null, phoneNumberId: o.api?.phoneNumberId ?? null };
  void server.register(operatorApi, { store, clock, policy, host: o.http.host, ...apiConfig, onReplay: () => pump.kick() });
  void server.register(dashboard, { store, clock, policy, ...apiConfig });
  await server.listen({ host: o.http.host, port: o.http.port });
  const url = `http://${o.http.host}:${(server.server.address() as AddressInfo).port}`;

  // Each loop has at most one pending timer: the next pass.
  const timers: { loop: Timer | null; breakers: Timer | null; inbox: Timer | null } = { loop: null, breakers: null, inbox: null };
  let stopped = false;
  // Passes under way. A graceful stop waits for them: a dispatcher pass has sends in flight, and
  // their answers must be recorded, or those rows are left mid-send and end up unknown.
  const passes = new Set<Promise<void>>();
  const tracked = (pass: () => Promise<void>) => (): Promise<void> => {
    const running = pass().finally(() => passes.delete(running));
    passes.add(running);
    return running;
  };
  const tick = async (): Promise<TickResult> => {
    if (o.inboxEveryMs === undefined) {
      tracker.step('applying stored webhooks');
      await pump.drain();
      tracker.step(null);
    }
    if (dispatcher === null) throw new Error('engine: start() it before ticking');
    return dispatcher.tick();
  };
  // A failing pass (the database away for a moment) is reported and tried again; the loop never dies.
  const report = (what: string, error: unknown) => process.stderr.write(`pacer: ${what} failed, retrying: ${error instanceof Error ? error.message : String(error)}\n`);
  const loop = tracked(async (): Promise<void> => {
    if (stopped) return;
    const startedAt = clock.now();
    tracker.begin();
    let next: { at: Millis; why: NextPassReason };
    let outcome: { result: TickResult } | { error: unknown };
    try {
      const result = await tick();
      outcome = { result };
      // Held back by the shared throughput: come back when the next token is due. Busy: the next pass
      // one burst's worth of time after this one started (not ended), so the budget flows evenly and
      // the number reaches its full throughput.
      if (result.pacedUntil !== null) next = { at: Math.max(result.pacedUntil, clock.now() + MIN_PACED_WAIT), why: 'paced' };
      else if (result.claimed > 0) next = { at: Math.max(startedAt + paceBurstMs, clock.now()), why: 'busy' };
      else {
        tracker.step('finding the next work');
        next = { at: await idleUntil(store, clock.now()), why: 'idle' };
      }
    } catch (error) {
      report('dispatch', error);
      outcome = { error };
      next = { at: clock.now() + RETRY_AFTER_FAILURE, why: 'after_failure' };
    }
    tracker.end(outcome, next);
    if ('result' in outcome) server.log.debug({ pass: outcome.result, ms: clock.now() - startedAt, next: next.why, nextInMs: next.at - clock.now() }, 'dispatch pass');
    if (!stopped) timers.loop = clock.at(next.at, loop);
  });
  const paceBurstMs = o.worker.paceBurstMs ?? PACE_BURST_MS;
  const breakerMemo = { lastEventId: -1 };
  const breakers = tracked(async (): Promise<void> => {
    if (stopped) return;
    try {
      await checkBreakers(store, policy, clock.now(), undefined, breakerMemo);
      await completeFinishedCampaigns(store, clock.now());
    } catch (error) {
      report('campaign checks', error);
    }
    if (!stopped) timers.breakers = clock.at(clock.now() + BREAKER_EVERY, breakers);
  });
  const inboxEvery = o.inboxEveryMs;
  const inbox = tracked(async (): Promise<void> => {
    if (stopped || inboxEvery === undefined) return;
    await pump.drain(); // the pump reports its own failures and is tried again next time
    if (!stopped) timers.inbox = clock.at(clock.now() + inboxEvery, inbox);
  });
  return {
    server, url, pump, tick, dispatchStatus,
    start(options) {
      api = createCloudApiClient({ ...options, capCodes: policy.capCodes, maxConcurrency: 32 });
      dispatcher = new Dispatcher({ store, api, policy, clock, random }, {
        owner: o.worker.owner, mps: o.worker.mps, leaseMs: o.worker.leaseMs ?? MINUTE, batchSize: o.worker.mps,
        pace: { phoneNumberId: options.phoneNumberId, burstMs: paceBurstMs },
      });
      timers.loop = clock.at(clock.now(), loop);
      timers.breakers = clock.at(clock.now(), breakers);
      if (inboxEvery !== undefined) timers.inbox = clock.at(clock.now(), inbox);
    },
    async stop() {
      stopped = true;
      timers.loop?.cancel();
      timers.breakers?.cancel();
      timers.inbox?.cancel();
      await Promise.allSettled([...passes]);
      await pump.drain();
      await api?.close();
      await server.close();
    },
  };
}

/**
 * An idle worker sleeps until it next has work (a row falls due, or a lease runs out and must be
 * swept), looking again at least every few minutes. Work due already was missed by a race, not
 * absent (a row fell due while the pass ran, or another worker was claiming it): look again
 * shortly, never after the long idle poll.
 */
async function idleUntil(store: Store, now: Millis): Promise<Millis> {
  const at = await store.nextWorkAt();
  if (at === null) return now + IDLE_POLL;
  return at > now ? Math.min(at, now + IDLE_POLL) : now + DUE_RECHECK;
}
