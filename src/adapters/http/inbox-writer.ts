import type { InboxInput, Store } from '../../ports/store.js';

export const DEFAULT_MAX_BATCH = 500;

export interface InboxWriterOptions {
  /** Largest number of payloads committed in one transaction. */
  maxBatch?: number;
  /** Called after each committed batch with its ids, in input order, once the waiters are answered. */
  onFlushed?: (ids: number[]) => void;
  /** Where a throwing `onFlushed` is reported; it never fails the batch, which is already committed. */
  onFlushedError?: (error: unknown) => void;
}

function reportWarning(error: unknown): void {
  process.emitWarning(`inbox onFlushed callback failed: ${error instanceof Error ? error.message : String(error)}`);
}

interface Waiter {
  entry: InboxInput;
  resolve: (id: number) => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit for the webhook inbox. Concurrent requests enqueue their payload and wait; one flush
 * at a time writes everything queued so far with a single `appendInboxBatch` (one transaction, one
 * fsync). Requests that arrive while a flush runs form the next batch, so batches grow with load
 * without any timer: an idle server commits a lone payload at once.
 */
export class InboxWriter {
  private readonly maxBatch: number;
  private queue: Waiter[] = [];
  private flushing: Promise<void> | null = null;
  private scheduled = false;
  private idleWaiters: Array<() => void> = [];

  constructor(
    private readonly store: Pick<Store, 'appendInboxBatch'>,
    private readonly options: InboxWriterOptions = {},
  ) {
    const maxBatch = options.maxBatch ?? DEFAULT_MAX_BATCH;
    if (!Number.isInteger(maxBatch) || maxBatch < 1)
      throw new RangeError(`InboxWriter: maxBatch must be a positive integer, got ${maxBatch}`);
    this.maxBatch = maxBatch;
  }

  /** Resolves with the inbox id once the payload is committed; rejects with the store's error. */
  append(entry: InboxInput): Promise<number> {
    return new Promise<number>((resolve, reject) => {
      this.queue.push({ entry, resolve, reject });
      this.schedule();
    });
  }

  /** Payloads waiting for a flush (not counting the one running). */
  get pending(): number {
    return this.queue.length;
  }

  /** Resolves once every payload queued so far has been committed or refused. */
  drain(): Promise<void> {
    if (this.isIdle()) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private isIdle(): boolean {
    return this.queue.length === 0 && this.flushing === null && !this.scheduled;
  }

  private schedule(): void {
    if (this.flushing !== null || this.scheduled) return;
    // Wait for the end of this I/O turn, so requests parsed together share the first commit too.
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.startFlush();
    });
  }

  private startFlush(): void {
    if (this.flushing !== null) return;
    if (this.queue.length === 0) {
      this.notifyIdle();
      return;
    }
    const batch = this.queue.splice(0, this.maxBatch);
    this.flushing = this.flush(batch).finally(() => {
      this.flushing = null;
      if (this.queue.length > 0) this.startFlush();
      else this.notifyIdle();
    });
  }

  private async flush(batch: Waiter[]): Promise<void> {
    let ids: number[];
    try {
      ids = await this.store.appendInboxBatch(batch.map((w) => w.entry));
    } catch (error) {
      for (const w of batch) w.reject(error);
      return;
    }
    if (ids.length !== batch.length) {
      const error = new Error(`appendInboxBatch returned ${ids.length} ids for ${batch.length} payloads`);
      for (const w of batch) w.reject(error);
      return;
    }
    batch.forEach((w, i) => w.resolve(ids[i] as number));
    try {
      this.options.onFlushed?.(ids);
    } catch (error) {
      (this.options.onFlushedError ?? reportWarning)(error);
    }
  }

  private notifyIdle(): void {
    if (!this.isIdle()) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const resolve of waiters) resolve();
  }
}
