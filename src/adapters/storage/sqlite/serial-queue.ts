/**
 * Runs jobs one after another. Jobs arriving while nothing is queued run at once, synchronously, so
 * the hot path pays no scheduling cost.
 */
export class SerialQueue {
  private tail: Promise<void> = Promise.resolve();
  private pending = 0;

  run<T>(job: () => T | Promise<T>): Promise<T> {
    if (this.pending === 0) {
      try {
        const result = job();
        return result instanceof Promise ? this.track(result) : Promise.resolve(result);
      } catch (error) {
        return Promise.reject(error as Error);
      }
    }
    return this.track(this.tail.then(job));
  }

  /** Resolves once everything queued so far has finished. */
  async drain(): Promise<void> {
    await this.tail;
  }

  private track<T>(promise: Promise<T>): Promise<T> {
    this.pending += 1;
    const settled = promise.then(
      () => undefined,
      () => undefined,
    );
    this.tail = this.tail.then(() => settled);
    void settled.then(() => {
      this.pending -= 1;
    });
    return promise;
  }
}

const byFile = new Map<string, { queue: SerialQueue; users: number }>();

/**
 * Connections to one file inside one process share a queue. SQLite's busy wait blocks the thread,
 * so a second connection waiting for a lock held across an `await` here would wait forever.
 */
export function acquireQueue(file: string): SerialQueue {
  const entry = byFile.get(file) ?? { queue: new SerialQueue(), users: 0 };
  entry.users += 1;
  byFile.set(file, entry);
  return entry.queue;
}

export function releaseQueue(file: string): void {
  const entry = byFile.get(file);
  if (!entry) return;
  entry.users -= 1;
  if (entry.users <= 0) byFile.delete(file);
}
