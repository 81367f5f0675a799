import type { FastifyPluginAsync } from 'fastify';
import { StoreError, type Store } from '../../ports/store.js';

export interface HealthRoutesOptions {
  store: Pick<Store, 'listUnprocessedInbox'>;
}

/** `GET /healthz`: 200 when the store answers a cheap indexed read, 503 otherwise. */
export const healthRoutes: FastifyPluginAsync<HealthRoutesOptions> = async (app, { store }) => {
  app.get('/healthz', async (request, reply) => {
    try {
      await store.listUnprocessedInbox(0, 1);
      return reply.code(200).send({ status: 'ok' });
    } catch (error) {
      const code = error instanceof StoreError ? error.code : 'unknown';
      request.log.error({ code }, `health check: the store did not answer: ${error instanceof Error ? error.message : String(error)}`);
      return reply.code(503).send({ status: 'unavailable', store: code });
    }
  });
};
