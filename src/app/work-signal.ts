import type { Millis } from '../core/time.js';
import type { WorkQueued, WorkSignal } from '../ports/work-signal.js';

/** This process's signal: listeners run synchronously, and one that throws does not stop the others. */
export function createWorkSignal(): WorkSignal {
  const listeners = new Set<(at: Millis | null) => void>();
  return {
    notifyQueued(at) {
      for (const listener of [...listeners]) {
        try {
          listener(at ?? null);
        } catch {
          // a listener's failure is its own; the work is in the store and its timer finds it
        }
      }
    },
    onQueued(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
}

/** For a process without a dispatcher (the CLI): the store tells the others (NOTIFY, or their poll). */
export const NO_DISPATCHER_HERE: WorkQueued = { notifyQueued: () => undefined };
