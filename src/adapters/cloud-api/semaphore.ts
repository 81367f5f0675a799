/** Bounds work in flight; waiters are served first come, first served. */
export class Semaphore {
  private available: number;
  private readonly waiters: Array<() => void> = [];

  constructor(permits: number) {
    this.available = permits;
  }

  acquire(): Promise<void> {
    if (this.available > 0) {
      this.available--;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  release(): void {
    const next = this.waiters.shift();
    if (next !== undefined)
      next(); // the permit passes straight to the next waiter
    else this.available++;
  }

  /** Requests waiting for a permit. */
  queued(): number {
    return this.waiters.length;
  }
}
