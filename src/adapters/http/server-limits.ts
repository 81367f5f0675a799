import type { Server } from 'node:http';
import { fastifyTrustProxy, type FastifyTrustProxy, type TrustProxySetting } from './trust-proxy.js';
import { DEFAULT_WEBHOOK_BODY_TIMEOUT_MS, DEFAULT_WEBHOOK_INFLIGHT_BYTES } from './webhook-intake.js';

/** The edge's settings (config.edge): whose forwarded headers to believe, and webhook body bounds. */
export interface HttpEdgeSettings {
  trustProxy?: TrustProxySetting;
  webhookInflightBytes?: number;
  webhookBodyTimeoutMs?: number;
}

/** Connections held open at once; past it new ones are dropped (a proxy pools far fewer). */
export const MAX_CONNECTIONS = 1024;

/**
 * Fastify's options for a server anyone may reach. Node checks the request and header timeouts
 * only every `connectionsCheckingInterval` (30 s by default), which let a stalled client keep its
 * connection twice as long as asked; once a second keeps them close to their figures.
 */
export function serverOptions(edge: HttpEdgeSettings = {}): {
  trustProxy: FastifyTrustProxy;
  requestTimeout: number;
  http: { headersTimeout: number; connectionsCheckingInterval: number };
} {
  return {
    trustProxy: fastifyTrustProxy(edge.trustProxy ?? false),
    // Meta retries slow acknowledgements; a stalled client must not hold a connection forever.
    requestTimeout: 30_000,
    http: { headersTimeout: 10_000, connectionsCheckingInterval: 1_000 },
  };
}

export function limitConnections(server: Server): void {
  server.maxConnections = MAX_CONNECTIONS;
}

export function webhookIntakeSettings(edge: HttpEdgeSettings = {}): { inflightBytes: number; bodyTimeoutMs: number } {
  return {
    inflightBytes: edge.webhookInflightBytes ?? DEFAULT_WEBHOOK_INFLIGHT_BYTES,
    bodyTimeoutMs: edge.webhookBodyTimeoutMs ?? DEFAULT_WEBHOOK_BODY_TIMEOUT_MS,
  };
}
