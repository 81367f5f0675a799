import type { DeliveryRetrySettings } from '../core/event-retry.js';
import type { Millis } from '../core/time.js';
import type { Scheduler, Timer } from '../ports/clock.js';
import type { EventWebhookSender } from '../ports/event-webhooks.js';
import { errorFields, type Logger } from '../ports/logger.js';
import type { EventDeliveryStore } from '../ports/store.js';
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
  store: Pick<EventDeliveryStore, 'claimEventDeliveries' | 'settleEventDelivery' | 'nextEventDeliveryAt'>;
  sender: EventWebhookSender;
  scheduler: Scheduler;
  logger: Logger;
  random: () => number;
}

export interface EventDeliveryLoop {
  /** Look for due deliveries now (after recording events in this process, say). */
  kick(): void;
  /** Requests in flight. */
  inFlight(): number;
  /** Stops claiming and waits for the requests in flight to be settled. */
  stop(): Promise<void>;
}

/** The shortest sleep: a due time already past (a claim raced a settlement) is looked at again this soon. */
const MIN_SLEEP_MS = 20;

/**
 * Delivers outbound events on a loop of its own, apart from sending: claims due deliveries up to
 * `concurrency` in flight, POSTs each, settles each as its answer comes, and claims again as
 * requests finish. Idle, it sleeps until the next delivery falls due, at most `pollMs`. A slow
 * receiver holds at most its requests' slots for the request timeout; it never touches the
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

  const sleepUntil = (at: Millis): void => {
    timer?.cancel();
    timer = scheduler.at(at, () => void pump());
  };

  async function deliver(claimed: Parameters<typeof deliverEvent>[2]): Promise<void> {
    try {
      const settlement = await deliverEvent(attempt, settings.owner, claimed);
      const kept = await store.settleEventDelivery(settlement, scheduler.now());
      if (settlement.outcome.kind === 'failed' && kept) {
        logger.warn('event delivery failed for good after its last retry; replay it once the receiver is fixed', {
          subscription: claimed.subscription.id,
          event: claimed.event.id,
          attempts: claimed.delivery.attempts + 1,
          error: settlement.attempt.error,
        });
      }
    } catch (error) {
      logger.warn('event delivery could not be settled; it goes again when its claim runs out', errorFields(error));
    }
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
        while (!stopped && running.size < settings.concurrency) {
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
    inFlight: () => running.size,
    async stop() {
      stopped = true;
      timer?.cancel();
      await pumping;
      while (running.size > 0) await Promise.allSettled([...running]);
    },
  };
}
