import { HOUR, MINUTE, type Millis } from '../core/time.js';
import type { Scheduler, Timer } from '../ports/clock.js';
import { errorFields, type Logger } from '../ports/logger.js';
import type { EventDeliveryStore, PrunedEvents } from '../ports/store.js';

/** Events per transaction: short enough that claims and settlements never wait long behind one. */
export const PRUNE_BATCH = 1_000;
/** How often a delivering process prunes; the first prune comes a minute after start. */
export const PRUNE_EVERY_MS = HOUR;
const FIRST_PRUNE_MS = MINUTE;

export type PruneStore = Pick<EventDeliveryStore, 'pruneOutboundEvents'>;

/**
 * Deletes the events that occurred more than `retentionMs` before `now` and that nothing still
 * owes (no pending delivery), with their deliveries and attempts, one batch per transaction until
 * none is left. A delivery failed for good goes with its event: it can no longer be replayed.
 */
export async function pruneEvents(store: PruneStore, now: Millis, retentionMs: Millis): Promise<PrunedEvents> {
  const total: PrunedEvents = { events: 0, deliveries: 0, attempts: 0 };
  for (;;) {
    const batch = await store.pruneOutboundEvents(now - retentionMs, PRUNE_BATCH);
    total.events += batch.events;
    total.deliveries += batch.deliveries;
    total.attempts += batch.attempts;
    // A short batch is the last; one that found rows but deleted fewer (a replay won) ends the run too.
    if (batch.events < PRUNE_BATCH) return total;
  }
}

export interface EventPruning {
  stop(): Promise<void>;
}

/**
 * Prunes on a timer in a process that delivers events: a minute after start, then hourly. Several
 * processes pruning at once do no harm (each batch deletes what is still there). A failed prune is
 * logged and tried again at the next hour; nothing is lost by waiting.
 */
export function startEventPruning(deps: { store: PruneStore; scheduler: Scheduler; logger: Logger }, retentionMs: Millis): EventPruning {
  const { store, scheduler, logger } = deps;
  let timer: Timer | null = null;
  let running: Promise<void> | null = null;
  let stopped = false;
  const schedule = (after: Millis): void => {
    // The task returns the prune, so virtual time waits for it like any other timer.
    timer = scheduler.at(scheduler.now() + after, () => {
      const current = run().finally(() => {
        running = null;
        if (!stopped) schedule(PRUNE_EVERY_MS);
      });
      running = current;
      return current;
    });
  };
  const run = async (): Promise<void> => {
    try {
      const pruned = await pruneEvents(store, scheduler.now(), retentionMs);
      if (pruned.events > 0) logger.info('pruned old outbound events', { ...pruned });
    } catch (error) {
      logger.error('pruning old outbound events failed; trying again in an hour', errorFields(error));
    }
  };
  schedule(FIRST_PRUNE_MS);
  return {
    async stop() {
      stopped = true;
      timer?.cancel();
      await running;
    },
  };
}
