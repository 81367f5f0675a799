import type { FastifyPluginAsync } from 'fastify';
import type { DispatchStatus } from '../../app/dispatch-status.js';
import { eventDeliveryTrouble } from '../../app/event-delivery-health.js';
import type { Clock } from '../../ports/clock.js';
import { StoreError, type Sender, type Store } from '../../ports/store.js';

export interface HealthRoutesOptions {
  store: Pick<Store, 'listUnprocessedInbox' | 'listSenders' | 'eventDeliveryBacklog' | 'listEventSubscriptions'>;
  clock: Clock;
  /** A dispatching process adds what its dispatcher loop is doing (null until it starts). */
  dispatchStatus?: () => DispatchStatus | null;
  /** Each number's loop when the process sends from more than one (`numbers` in the answer). */
  dispatchByNumber?: () => Record<string, DispatchStatus>;
}

/**
 * `GET /healthz`: 200 when the store answers a cheap indexed read, 503 otherwise. A sender number
 * that cannot send (stopped by a refusal such as an expired token, or a restricted account) makes
 * it `degraded`, still 200 (webhooks must keep arriving), naming each such number and the reason.
 * A dispatching process also says what its dispatcher is doing (`dispatch`), so an operator can
 * tell a worker that waits on purpose from one stuck in a step. `dispatch` is the default number's
 * loop; a process sending from several numbers adds every number's under `numbers`. An event
 * subscription whose receiver keeps failing (deliveries given up on in the last day, or a pending one
 * waiting over an hour) makes it `degraded` too, listed under `events`.
 */
export const healthRoutes: FastifyPluginAsync<HealthRoutesOptions> = async (app, { store, clock, dispatchStatus, dispatchByNumber }) => {
  app.get('/healthz', async (request, reply) => {
    const byNumber = dispatchByNumber?.() ?? {};
    const dispatch = {
      ...(dispatchStatus === undefined ? {} : { dispatch: dispatchStatus() }),
      ...(Object.keys(byNumber).length > 1 ? { numbers: byNumber } : {}),
    };
    try {
      await store.listUnprocessedInbox(0, 1);
      const stopped = (await store.listSenders()).filter((s) => s.state === 'stopped').map(cannotSend);
      const troubled = await eventDeliveryTrouble(store, clock.now());
      const problems = { ...(stopped.length > 0 ? { senders: stopped } : {}), ...(troubled.length > 0 ? { events: troubled } : {}) };
      if (stopped.length > 0 || troubled.length > 0) return reply.code(200).send({ status: 'degraded', ...problems, ...dispatch });
      return reply.code(200).send({ status: 'ok', ...dispatch });
    } catch (error) {
      const code = error instanceof StoreError ? error.code : 'unknown';
      request.log.error({ code }, `health check: the store did not answer: ${error instanceof Error ? error.message : String(error)}`);
      return reply.code(503).send({ status: 'unavailable', store: code, ...dispatch });
    }
  });
};

function cannotSend(s: Sender): { phoneNumberId: string; state: string; reason: string } {
  return { phoneNumberId: s.phoneNumberId, state: s.state, reason: s.stateReason ?? 'stopped by an operator' };
}
