import type { Millis } from '../core/time.js';
import type { Scheduler, Timer } from '../ports/clock.js';
import { drainInbox, type InboxDeps, type InboxResult } from './process-inbox.js';

/** How long after a failed pass (the database away, say) the pump tries again on its own. */
export const INBOX_RETRY_MS: Millis = 5000;

/**
 * Runs the inbox processor one pass at a time: kicks while a pass runs coalesce into one more pass,
 * so a burst of webhooks never runs the processor concurrently with itself in this process. A pass
 * that fails is tried again after `retryMs` (with a scheduler), not only when the next webhook comes.
 */
export class InboxPump {
  private running: Promise<void> | null = null;
  private again = false;
  private retry: Timer | null = null;
  private stopped = false;
  readonly totals: InboxResult = { rows: 0, items: 0, quarantined: 0 };

  constructor(
    private readonly deps: InboxDeps,
    private readonly onError: (error: unknown) => void,
    private readonly retryWith: { scheduler: Scheduler; retryMs?: Millis } | null = null,
  ) {}

  kick(): void {
    if (this.running !== null) {
      this.again = true;
      return;
    }
    this.running = this.loop().finally(() => {
      this.running = null;
      // A kick after the loop's last look but before this ran would otherwise be lost.
      if (this.again && !this.stopped) this.kick();
    });
  }

  /** Resolves once everything stored so far has been processed. */
  async drain(): Promise<void> {
    this.kick();
    while (this.running !== null) await this.running;
  }

  /** No more retries; a pass running finishes. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.retry?.cancel();
    this.retry = null;
    while (this.running !== null) await this.running;
  }

  private async loop(): Promise<void> {
    do {
      this.again = false;
      try {
        // What is stored after the drain's last read kicks the pump again.
        await drainInbox(this.deps, this.totals);
      } catch (error) {
        this.onError(error);
        this.scheduleRetry();
      }
    } while (this.again);
  }

  private scheduleRetry(): void {
    if (this.retryWith === null || this.stopped || this.retry !== null) return;
    const { scheduler, retryMs = INBOX_RETRY_MS } = this.retryWith;
    this.retry = scheduler.at(scheduler.now() + retryMs, () => {
      this.retry = null;
      if (!this.stopped) this.kick();
    });
  }
}
