import Fastify, { type FastifyInstance } from 'fastify';
import type { DispatchStatus } from '../../app/dispatch-status.js';
import type { Clock } from '../../ports/clock.js';
import type { Store } from '../../ports/store.js';
import { AuthFailureLimiter } from './auth-failures.js';
import { healthRoutes } from './health-routes.js';
import { createHttpMetrics, type HttpMetrics } from './http-metrics.js';
import { InboxWriter } from './inbox-writer.js';
import { buildLoggerOptions, type HttpLoggerOptions } from './log-options.js';
import { limitConnections, serverOptions, webhookIntakeSettings, type HttpEdgeSettings } from './server-limits.js';
import { webhookRoutes } from './webhook-routes.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Counters of the HTTP edge (webhooks stored, refused by reason, batches committed...). */
    pacerMetrics: HttpMetrics;
  }
}

export interface HttpServerConfig {
  /** `WHATSAPP_APP_SECRET`, split: every secret a webhook signature may be made with. */
  appSecrets: readonly string[];
  /** `WHATSAPP_VERIFY_TOKEN`: null refuses every subscription handshake. */
  verifyToken: string | null;
  mode: 'production' | 'development';
  /** Trusted proxies and webhook body bounds (config.edge); defaults: no proxy, 32 MB, 10 s. */
  edge?: HttpEdgeSettings;
}

export interface HttpServerDeps {
  store: Store;
  config: HttpServerConfig;
  clock: Clock;
  /**
   * Called with the ids of each committed inbox batch, after the requests were answered, so the
   * processor can run at once. Fire and forget: its failures are logged, never sent to Meta.
   */
  onStored?: (ids: number[]) => void | Promise<void>;
  /** Logger settings, or false for none. Redaction is always on. */
  logger?: HttpLoggerOptions | false;
  /** Largest inbox group commit (default 500). */
  maxInboxBatch?: number;
  /** What the dispatcher loop is doing, for /healthz, in a process that dispatches. */
  dispatchStatus?: () => DispatchStatus | null;
}

/**
 * The HTTP app as a value: routes are encapsulated plugins (webhooks, health; the REST API and the
 * dashboard register theirs on the returned instance before `listen`). The caller listens and closes;
 * closing waits for payloads already queued for the inbox.
 */
export function buildHttpServer(deps: HttpServerDeps): FastifyInstance {
  const { store, config, clock } = deps;
  const app = Fastify({
    logger: deps.logger === false ? false : buildLoggerOptions(deps.logger),
    ...serverOptions(config.edge),
  });
  limitConnections(app.server);
  const metrics = createHttpMetrics();
  app.decorate('pacerMetrics', metrics);
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
  void app.register(healthRoutes, { store, ...(deps.dispatchStatus === undefined ? {} : { dispatchStatus: deps.dispatchStatus }) });
  void app.register(webhookRoutes, {
    auth: { appSecrets: [...config.appSecrets], mode: config.mode },
    verifyToken: config.verifyToken,
    clock,
    writer,
    metrics,
    intake: webhookIntakeSettings(config.edge),
  });
  return app;
}

/** Startup warnings for configurations that make webhooks fail or that weaken them. */
function warnAboutConfig(app: FastifyInstance, config: HttpServerConfig): void {
  if (config.appSecrets.length === 0 && config.mode === 'production') {
    app.log.warn('no WHATSAPP_APP_SECRET is configured: in production every webhook POST is refused with 401 until one is set');
  } else if (config.appSecrets.length === 0) {
    app.log.warn('development mode without WHATSAPP_APP_SECRET: unsigned webhooks are accepted and stored as unverified; never expose this server');
  }
  if (config.verifyToken === null || config.verifyToken === '') {
    app.log.warn('no WHATSAPP_VERIFY_TOKEN is configured: the webhook subscription handshake is refused with 403');
  }
}
