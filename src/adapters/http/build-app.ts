import Fastify, { type FastifyInstance } from 'fastify';
import type { DispatchStatus } from '../../app/dispatch-status.js';
import type { Policy } from '../../core/policy.js';
import type { Clock } from '../../ports/clock.js';
import type { Store } from '../../ports/store.js';
import type { WorkQueued } from '../../ports/work-signal.js';
import { NO_DISPATCHER_HERE } from '../../app/work-signal.js';
import { operatorApi, type OperatorApiOptions } from './api/operator-api.js';
import type { RateLimitSettings } from './api/rate-limit.js';
import type { DashboardDeps } from './dashboard/dashboard-deps.js';
import { dashboard } from './dashboard/dashboard-plugin.js';
import { AuthFailureLimiter } from './auth-failures.js';
import { healthRoutes } from './health-routes.js';
import { createHttpMetrics, type HttpMetrics } from './http-metrics.js';
import { InboxWriter } from './inbox-writer.js';
import { buildLoggerOptions, type HttpLoggerOptions } from './log-options.js';
import { limitConnections, serverOptions, webhookIntakeSettings, type HttpEdgeSettings } from './server-limits.js';
import { ignoreAfterRefusal } from './lingering-close.js';
import { webhookRoutes } from './webhook-routes.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Counters of the HTTP edge (webhooks stored, refused by reason, batches committed...). */
    pacerMetrics: HttpMetrics;
  }
}

export interface AppConfig {
  /** `WHATSAPP_APP_SECRET`, split: every secret a webhook signature may be made with. */
  appSecrets: readonly string[];
  /** `WHATSAPP_VERIFY_TOKEN`: null refuses every subscription handshake. */
  verifyToken: string | null;
  mode: 'production' | 'development';
  /** The address the server binds (`PACER_HOST`): /metrics is open without a token only on loopback. */
  host: string;
  /** `PACER_ADMIN_TOKEN`, accepted as the bootstrap token by the API and the dashboard; null accepts stored tokens only. */
  adminToken: string | null;
  /** `WHATSAPP_PHONE_NUMBER_ID`, the number one-off messages and replies go from; null refuses them. */
  phoneNumberId: string | null;
  /** `PACER_IDEMPOTENCY_TTL`: how long the API keeps an Idempotency-Key and its first answer (default 24 h). */
  idempotencyTtlMs?: number;
  /** Trusted proxies and webhook body bounds (config.edge); defaults: no proxy, 32 MB, 10 s. */
  edge?: HttpEdgeSettings;
}

/** The store roles of every route: the inbox's writes and the read /healthz makes, the API's and the dashboard's. */
export type AppStore = Pick<Store, 'appendInboxBatch' | 'listUnprocessedInbox'> & OperatorApiOptions['store'] & DashboardDeps['store'];

export interface AppDeps {
  store: AppStore;
  clock: Clock;
  policy: Policy;
  config: AppConfig;
  /**
   * Called with the ids of each committed inbox batch, after the requests were answered, so the
   * processor can run at once. Fire and forget: its failures are logged, never sent to Meta.
   */
  onStored?: (ids: number[]) => void | Promise<void>;
  /** After a quarantine replay through the API released payloads: lets the inbox processor run at once. */
  onReplay?: () => void;
  /**
   * Told of work the API and dashboard queue (messages, replies, resumed campaigns): a dispatching
   * process wakes its loop with it. Without it, other processes still hear through the store.
   */
  signal?: WorkQueued;
  /** What the dispatcher loop is doing, for /healthz, in a process that dispatches. */
  dispatchStatus?: () => DispatchStatus | null;
  /** With more than one number: each number's dispatcher loop, by phone-number id. */
  dispatchByNumber?: () => Record<string, DispatchStatus>;
  /** Logger settings, or false for none. Redaction is always on. */
  logger?: HttpLoggerOptions | false;
  /** Largest inbox group commit (default 500). */
  maxInboxBatch?: number;
  /** The API's per-token rate limit (default 50 requests/s, bursts of 100); null turns it off. */
  rateLimit?: RateLimitSettings | null;
  /** The business account the API's template sync reads; absent: POST /api/v1/templates/sync answers 503. */
  templateAccount?: OperatorApiOptions['templateAccount'];
  /** Told of each route as it is registered (the API reference test lists them). */
  onRoute?: (route: { method: string; url: string }) => void;
}

/**
 * The HTTP app as a value: webhooks, /healthz, the REST API with /metrics, and the dashboard, each
 * an encapsulated plugin, all registered before it returns. It does not listen: `src/main` does, and
 * tests `inject()` requests. Closing waits for payloads already queued for the inbox.
 */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { store, clock, policy, config } = deps;
  const app = Fastify({
    logger: deps.logger === false ? false : buildLoggerOptions(deps.logger),
    ...serverOptions(config.edge),
  });
  limitConnections(app.server);
  app.addHook('onRequest', ignoreAfterRefusal);
  const metrics = createHttpMetrics();
  app.decorate('pacerMetrics', metrics);
  const onRoute = deps.onRoute;
  if (onRoute !== undefined) {
    app.addHook('onRoute', (r) => {
      for (const method of [r.method].flat()) if (method !== 'HEAD') onRoute({ method, url: r.url });
    });
  }
  app.decorate('pacerAuthFailures', new AuthFailureLimiter(clock));

  const onStored = deps.onStored;
  const writer = new InboxWriter(store, {
    maxBatch: deps.maxInboxBatch,
    onFlushed: (ids) => {
      metrics.inboxBatches++;
      if (!onStored) return;
      Promise.resolve()
        .then(() => onStored(ids))
        .catch((error: unknown) => app.log.error({ err: error, batch: ids.length }, 'inbox processing after store failed'));
    },
    onFlushedError: (error) => app.log.error({ err: error }, 'inbox batch callback failed'),
  });
  app.addHook('onClose', async () => {
    await writer.drain();
  });

  warnAboutConfig(app, config);
  const { adminToken, phoneNumberId, host } = config;
  const signal = deps.signal ?? NO_DISPATCHER_HERE;
  await app.register(healthRoutes, { store, clock, dispatchStatus: deps.dispatchStatus, dispatchByNumber: deps.dispatchByNumber });
  await app.register(webhookRoutes, {
    auth: { appSecrets: [...config.appSecrets], mode: config.mode },
    verifyToken: config.verifyToken,
    clock,
    writer,
    metrics,
    intake: webhookIntakeSettings(config.edge),
  });
  await app.register(operatorApi, {
    store,
    clock,
    policy,
    host,
    mode: config.mode,
    adminToken,
    phoneNumberId,
    rateLimit: deps.rateLimit,
    ...(config.idempotencyTtlMs !== undefined ? { idempotencyKeepMs: config.idempotencyTtlMs } : {}),
    onReplay: deps.onReplay,
    signal,
    templateAccount: deps.templateAccount ?? null,
  });
  await app.register(dashboard, { store, clock, policy, adminToken, phoneNumberId, signal });
  return app;
}

/** Startup warnings for configurations that make webhooks fail or that weaken them. */
function warnAboutConfig(app: FastifyInstance, config: AppConfig): void {
  if (config.appSecrets.length === 0 && config.mode === 'production') {
    app.log.warn('no WHATSAPP_APP_SECRET is configured: in production every webhook POST is refused with 401 until one is set');
  } else if (config.appSecrets.length === 0) {
    app.log.warn(
      'development mode without WHATSAPP_APP_SECRET: unsigned webhooks are accepted and stored as unverified; never expose this server',
    );
  }
  if (config.verifyToken === null || config.verifyToken === '') {
    app.log.warn('no WHATSAPP_VERIFY_TOKEN is configured: the webhook subscription handshake is refused with 403');
  }
}
