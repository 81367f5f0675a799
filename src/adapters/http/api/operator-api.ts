import type { WorkQueued } from '../../../ports/work-signal.js';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { isIP } from 'node:net';
import type { Policy } from '../../../core/policy.js';
import type { Clock } from '../../../ports/clock.js';
import { sendersOverview } from '../../../app/sender-overview.js';
import type { ApiTokenStore, DeliveryReportStore, IdempotencyStore } from '../../../ports/store.js';
import type { ApiDeps, ApiStore } from './api-deps.js';
import { apiErrorHandler } from './api-error.js';
import { bearerAuth, createAuthCounters, type AuthCounters } from './auth-hook.js';
import { registerNdjsonParser } from './body-types.js';
import { DEFAULT_IDEMPOTENCY_KEEP } from './idempotency.js';
import { campaignRoutes } from './campaigns-routes.js';
import { catalogueRoutes } from './catalogue-routes.js';
import { contactWriteRoutes } from './contact-write-routes.js';
import { contactBulkRoute } from './contacts-bulk-route.js';
import { contactRoutes } from './contacts-routes.js';
import { diagnoseRoutes } from './diagnose-routes.js';
import { eventDeliveryRoutes } from './event-deliveries-routes.js';
import { eventSubscriptionRoutes } from './event-subscriptions-routes.js';
import { messageRoutes } from './messages-routes.js';
import { renderMetrics } from './metrics-text.js';
import { buildOpenApiDocument, renderDocsPage } from './openapi.js';
import { segmentRoutes } from './segments-routes.js';
import { senderRoutes } from './senders-routes.js';
import { RateLimiter, type RateLimitSettings } from './rate-limit.js';
import { registerRoutes, route, type AnyRoute } from './route-table.js';
import { webhookRoutes } from './webhooks-routes.js';

export const API_PREFIX = '/api/v1';

export interface OperatorApiOptions {
  /** The routes' roles, the tokens' lookup, and what /metrics reports. */
  store: ApiStore & Pick<ApiTokenStore, 'findApiToken'> & Pick<DeliveryReportStore, 'outboxTotals'> & IdempotencyStore;
  clock: Clock;
  policy: Policy;
  /** PACER_ADMIN_TOKEN, accepted as the bootstrap token; null accepts stored tokens only. */
  adminToken: string | null;
  /** PACER_MODE: production refuses plain-http subscriber URLs except to loopback. */
  mode: 'production' | 'development';
  /** WHATSAPP_PHONE_NUMBER_ID; null refuses POST /messages with 503. */
  phoneNumberId: string | null;
  /** The address the server binds: /metrics is open only when it is a loopback address. */
  host: string;
  /** Per-token token bucket (default 50 requests/s, bursts of 100); null turns it off. */
  rateLimit?: RateLimitSettings | null;
  /** How long an Idempotency-Key and its first answer are kept (PACER_IDEMPOTENCY_TTL; default 24 h). */
  idempotencyKeepMs?: number;
  onReplay?: () => void;
  signal: WorkQueued;
  /** The business account POST /templates/sync reads (WHATSAPP_BUSINESS_ACCOUNT_ID with its token); absent or null: 503. */
  templateAccount?: ApiDeps['templateAccount'];
}

/** `localhost`, 127.0.0.0/8 and ::1: nothing outside this machine can reach the server. */
export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '');
  if (h === 'localhost' || h === '::1') return true;
  return isIP(h) === 4 && h.startsWith('127.');
}

/**
 * The operator surfaces: the REST API under /api/v1 (bearer tokens, per-token rate limit, OpenAPI
 * document and docs page) and /metrics for Prometheus. Registered on the app by buildApp.
 */
export const operatorApi: FastifyPluginAsync<OperatorApiOptions> = async (app, o) => {
  const counters = createAuthCounters();
  const limiter = o.rateLimit === null ? null : new RateLimiter(o.clock, o.rateLimit ?? undefined);
  const deps: ApiDeps = {
    store: o.store,
    clock: o.clock,
    policy: o.policy,
    mode: o.mode,
    phoneNumberId: o.phoneNumberId,
    onReplay: o.onReplay ?? (() => undefined),
    signal: o.signal,
    templateAccount: o.templateAccount ?? null,
  };
  const auth = bearerAuth({ store: o.store, adminToken: o.adminToken, limiter, counters, failures: app.pacerAuthFailures });

  app.decorateRequest('pacerPrincipal', null);
  app.decorateRequest('pacerIdempotency', null);
  const idempotency = { store: o.store, clock: o.clock, keepMs: o.idempotencyKeepMs ?? DEFAULT_IDEMPOTENCY_KEEP };

  await app.register(
    async (v1) => {
      v1.addHook('onRequest', auth);
      registerNdjsonParser(v1);
      v1.setErrorHandler(apiErrorHandler);
      v1.setNotFoundHandler((request, reply) =>
        reply.code(404).send({ error: 'not_found', message: `no route ${request.method} ${request.url.split('?')[0] ?? ''}` }),
      );
      const routes: AnyRoute[] = [
        ...contactRoutes(deps),
        ...contactWriteRoutes(deps),
        contactBulkRoute(deps),
        ...campaignRoutes(deps),
        ...messageRoutes(deps),
        ...catalogueRoutes(deps),
        ...segmentRoutes(deps),
        ...senderRoutes(deps),
        ...webhookRoutes(deps),
        ...diagnoseRoutes(deps),
        ...eventSubscriptionRoutes(deps),
        ...eventDeliveryRoutes(deps),
      ];
      routes.push(...documentRoutes(routes));
      registerRoutes(v1, routes, { idempotency });
    },
    { prefix: API_PREFIX },
  );

  registerMetrics(app, o, counters, isLoopbackHost(o.host) ? null : auth);
};

function documentRoutes(routes: readonly AnyRoute[]): AnyRoute[] {
  // Built lazily so the document also lists these two routes.
  let doc: Record<string, unknown> | null = null;
  const document = () => (doc ??= buildOpenApiDocument(routes, API_PREFIX, '1'));
  return [
    route({
      method: 'GET',
      url: '/openapi.json',
      scope: 'public',
      operationId: 'openApiDocument',
      tag: 'meta',
      summary: 'This API as an OpenAPI 3.1 document',
      responses: { 200: { description: 'The document' } },
      handler: () => Promise.resolve(document()),
    }),
    route({
      method: 'GET',
      url: '/docs',
      scope: 'public',
      operationId: 'apiDocs',
      tag: 'meta',
      summary: 'A page listing the operations',
      responses: { 200: { description: 'HTML', contentType: 'text/html' } },
      handler: ({ reply }) => Promise.resolve(reply.type('text/html; charset=utf-8').send(renderDocsPage(document()))),
    }),
  ];
}

function registerMetrics(
  app: FastifyInstance,
  o: OperatorApiOptions,
  counters: AuthCounters,
  auth: ReturnType<typeof bearerAuth> | null,
): void {
  app.get('/metrics', { config: { scope: 'read' }, ...(auth ? { onRequest: auth } : {}) }, async (_request, reply) => {
    const now = o.clock.now();
    const [outbox, paused, senders, eventTotals] = await Promise.all([
      o.store.outboxTotals(),
      o.store.listCampaigns({ status: 'paused' }),
      sendersOverview(o.store, now, { history: false }),
      o.store.eventDeliveryTotals(now),
    ]);
    const text = renderMetrics({
      outbox,
      campaignsPaused: paused.length,
      senders,
      http: app.pacerMetrics,
      api: counters,
      authLimited: app.pacerAuthFailures.limited,
      events: { totals: eventTotals },
      now,
    });
    return reply.type('text/plain; version=0.0.4; charset=utf-8').send(text);
  });
}
