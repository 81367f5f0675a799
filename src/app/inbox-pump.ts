import { processInbox, type InboxDeps, type InboxResult } from './process-inbox.js';

/**
 * Runs the inbox processor one pass at a time: kicks while a pass runs coalesce into one more pass,
 * so a burst of webhooks never runs the processor concurrently with itself in this process.
 */
export class InboxPump {
  private running: Promise<void> | null = null;
  private again = false;
  readonly totals: InboxResult = { rows: 0, items: 0, quarantined: 0 };

  constructor(
    private readonly deps: InboxDeps,
    private readonly onError: (error: unknown) => void,
  ) {}

  kick(): void {
    if (this.running !== null) {
      this.again = true;
      return;
    }
    this.running = this.loop().finally(() => {
      this.running = null;
    });
  }

  /** Resolves once everything stored so far has been processed. */
  async drain(): Promise<void> {
    this.kick();
    while (this.running !== null) await this.running;
  }

  private async loop(): Promise<void> {
    do {
      this.again = false;
      try {
        for (;;) {
          const r = await processInbox(this.deps);
          this.totals.rows += r.rows;
          this.totals.items += r.items;
          this.totals.quarantined += r.quarantined;
          if (r.rows === 0) break;
        }
      } catch (error) {
        this.onError(error);
      }
    } while (this.again);
  }
}
