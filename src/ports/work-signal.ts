import type { Millis } from '../core/time.js';

/**
 * Outbox work was committed: rows queued, held rows woken, a campaign set running. Whatever queues
 * work tells this process's dispatcher through it, so an idle loop need not wait for its poll.
 */
export interface WorkQueued {
  /** `at`: when the work falls due (absent: now). Call after the rows are committed. */
  notifyQueued(at?: Millis): void;
}

export interface WorkSignal extends WorkQueued {
  /** Calls `listener` with each notification's due time; returns the unsubscribe. */
  onQueued(listener: (at: Millis | null) => void): () => void;
}

/** How a process hears of work other processes queued (Store.watchQueued), for /healthz. */
export interface QueuedWatch {
  /** `notify`: PostgreSQL LISTEN/NOTIFY; `poll`: SQLite's data version read every `everyMs`. */
  readonly by: 'notify' | 'poll';
  readonly everyMs: Millis | null;
  /** False while the LISTEN connection is down (being re-established); a poll is always connected. */
  connected(): boolean;
  close(): Promise<void>;
}
