import type { DeliveryRetrySettings } from '../core/event-retry.js';
import type { Millis } from '../core/time.js';
import type { Scheduler, Timer } from '../ports/clock.js';
import type { EventWebhookSender } from '../ports/event-webhooks.js';
import { errorFields, type Logger } from '../ports/logger.js';
import type { ClaimedDelivery, DeliverySettlement, EventDeliveryStore } from '../ports/store.js';
import { deliverEvent } from './deliver-event.js';

export interface EventDeliverySettings {
  /** Names this process's claims. */
  owner: string;
  /** Requests in flight at once, across subscriptions. */
  concurrency: number;
  /** How long a claim lasts: longer than a request may take, so a live worker never loses one. */
  leaseMs: Millis;
  /** How often an idle loop looks for deliveries other processes queued. */
  pollMs: Millis;
  retry: DeliveryRetrySettings;
}

export interface EventDeliveryDeps {
  store: Pick<EventDeliveryStore, 'claimEventDeliveries' | 'settleEventDeliveries' | 'nextEventDeliveryAt'>;
  sender: EventWebhookSender;
  scheduler: Scheduler;
  logger: Logger;
  random: () => number;
}

export interface EventDeliveryLoop {
  /** Look for due deliveries now (after recording events in this process, say). */
  kick(): void;
  /** Requests in flight, and answers not yet settled. */
  inFlight(): number;
  /** Stops claiming and waits for the requests in flight to be settled. */
  stop(): Promise<void>;
}

/** The shortest sleep: a due time already past (a claim raced a settlement) is looked at again this soon. */
const MIN_SLEEP_MS = 20;
/** Settlements in one transaction at most. */
const SETTLE_GROUP = 200;

/**
 * Delivers outbound events on a loop of its own, apart from sending: claims due deliveries up to
 * `concurrency` in flight, POSTs each, settles the answers as they come (those arriving together in
 * one commit), and claims again as slots free. Idle, it sleeps until the next delivery falls due,
 * at most `pollMs`. A slow receiver holds at most its requests' slots for the request timeout; it never touches the
 * dispatcher's transactions. Store failures are logged and looked at again after `pollMs`; a
 * settlement that fails leaves its claim to run out, and the delivery goes again (at least once).
 */
export function startEventDeliveryLoop(deps: EventDeliveryDeps, settings: EventDeliverySettings): EventDeliveryLoop {
  const { store, scheduler, logger } = deps;
  const attempt = { sender: deps.sender, clock: scheduler, random: deps.random, retry: settings.retry };
  const running = new Set<Promise<void>>();
  let stopped = false;
  let pumping: Promise<void> | null = null;
  let again = false;
  let timer: Timer | null = null;
  const minClaim = Math.max(1, Math.floor(settings.concurrency / 2));

  const sleepUntil = (at: Millis): void => {
    timer?.cancel();
    timer = scheduler.at(at, () => void pump());
  };

  // Answers are settled in groups, one transaction each (group commit): while one group commits,
  // the answers arriving meanwhile wait for the next. A request's slot is free once it is answered;
  // claiming waits while too many answers wait to be settled.
  const unsettled: Array<{ settlement: DeliverySettlement; claimed: ClaimedDelivery }> = [];
  let settling: Promise<void> | null = null;
  let settlingCount = 0;
  const backlogged = (): boolean => unsettled.length + settlingCount >= 2 * settings.concurrency;

  async function settleAll(): Promise<void> {
    while (unsettled.length > 0) {
      const group = unsettled.splice(0, SETTLE_GROUP);
      settlingCount = group.length;
      try {
        const kept = await store.settleEventDeliveries(
          group.map((g) => g.settlement),
          scheduler.now(),
        );
        group.forEach((g, i) => {
          if (g.settlement.outcome.kind !== 'failed' || kept[i] !== true) return;
          logger.warn('event delivery failed for good after its last retry; replay it once the receiver is fixed', {
            subscription: g.claimed.subscription.id,
            event: g.claimed.event.id,
            attempts: g.claimed.delivery.attempts + 1,
            error: g.settlement.attempt.error,
          });
        });
      } catch (error) {
        logger.warn('event deliveries could not be settled; they go again when their claims run out', errorFields(error));
      } finally {
        settlingCount = 0;
      }
      // Settled: the contacts' next deliveries may go, and claiming may resume.
      void pump();
    }
  }

  async function deliver(claimed: ClaimedDelivery): Promise<void> {
    try {
      unsettled.push({ settlement: await deliverEvent(attempt, settings.owner, claimed), claimed });
    } catch (error) {
      logger.warn('event delivery failed unexpectedly; it goes again when its claim runs out', errorFields(error));
      return;
    }
    startSettling();
  }

  function startSettling(): void {
    if (settling !== null) return;
    settling = settleAll().finally(() => {
      settling = null;
      if (unsettled.length > 0) startSettling(); // arrived as the last group finished
    });
  }

  function pump(): Promise<void> {
    if (stopped) return Promise.resolve();
    if (pumping !== null) {
      again = true;
      return pumping;
    }
    pumping = pass().finally(() => {
      pumping = null;
      if (again && !stopped) void pump();
    });
    return pumping;
  }

  async function pass(): Promise<void> {
    try {
      do {
        again = false;
        // Claims fill a few slots at once, not one per answer, unless nothing is in flight.
        while (!stopped && !backlogged() && settings.concurrency - running.size >= (running.size === 0 ? 1 : minClaim)) {
          const claimed = await store.claimEventDeliveries({
            owner: settings.owner,
            now: scheduler.now(),
            leaseMs: settings.leaseMs,
            limit: settings.concurrency - running.size,
          });
          if (claimed.length === 0) break;
          for (const c of claimed) {
            const work = deliver(c).finally(() => {
              running.delete(work);
              void pump();
            });
            running.add(work);
          }
        }
      } while (again && !stopped);
      if (stopped) return;
      const now = scheduler.now();
      const next = await store.nextEventDeliveryAt();
      sleepUntil(Math.min(now + settings.pollMs, Math.max(next ?? Infinity, now + MIN_SLEEP_MS)));
    } catch (error) {
      logger.warn('event delivery: the store did not answer; looking again shortly', errorFields(error));
      if (!stopped) sleepUntil(scheduler.now() + settings.pollMs);
    }
  }

  void pump();
  return {
    kick: () => void pump(),
    inFlight: () => running.size + unsettled.length + settlingCount,
    async stop() {
      stopped = true;
      timer?.cancel();
      await pumping;
      while (running.size > 0) await Promise.allSettled([...running]);
      while (settling !== null) await settling;
    },
  };
}
