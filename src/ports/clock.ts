/**
 * Time as a port. Everything that reads the time or waits takes a `Clock` (or a `Scheduler`),
 * so the same code runs on real time in production and on virtual time in tests and demos,
 * where days pass in milliseconds and no test sleeps.
 */

import type { Millis } from '../core/time.js';

export type { Millis };

export interface Clock {
  now(): Millis;
}

/** A task may be async; virtual time waits for it before moving on, so effects land in order. */
export type Task = () => void | Promise<void>;

export interface Timer {
  cancel(): void;
}

export interface Scheduler extends Clock {
  /**
   * Runs `task` once the clock reaches `at` (at once, on the next turn, if `at` is already past).
   * Tasks due at the same moment run in no set order on real time: a task that must follow another
   * waits for it, whatever their times.
   */
  at(at: Millis, task: Task): Timer;
}

/** Real time: `Date.now()` and `setTimeout`. */
export const systemClock: Scheduler = {
  now: () => Date.now(),
  at(at, task) {
    let handle: ReturnType<typeof setTimeout>;
    // Timers run on the monotonic clock in whole milliseconds, so by Date.now() one can fire a
    // millisecond early: a pass woken for a row's due time would find it not yet due. Wait out the rest.
    const arm = (): void => {
      handle = setTimeout(
        () => {
          if (Date.now() < at) {
            arm();
            return;
          }
          void Promise.resolve()
            .then(task)
            .catch((error: unknown) => process.emitWarning(`scheduled task failed: ${String(error)}`));
        },
        Math.max(0, at - Date.now()),
      );
      handle.unref?.();
    };
    arm();
    return { cancel: () => clearTimeout(handle) };
  },
};

interface Entry {
  at: Millis;
  seq: number;
  task: Task;
  cancelled: boolean;
}

/**
 * Virtual time. Nothing moves until `advance` (or `advanceTo`) is called; timers then run in time
 * order (ties in the order they were set), each awaited before the next, and the clock reads the
 * timer's own time while it runs. A min-heap keeps this cheap with many pending timers.
 */
export class VirtualClock implements Scheduler {
  private current: Millis;
  private seq = 0;
  private heap: Entry[] = [];
  private cancelledCount = 0;
  private running: Promise<void> = Promise.resolve();

  constructor(start: Millis = Date.UTC(2026, 0, 5, 9, 0, 0)) {
    this.current = Math.floor(start);
  }

  now(): Millis {
    return this.current;
  }

  at(at: Millis, task: Task): Timer {
    // Whole milliseconds, like Date.now(): stored times are integers.
    const entry: Entry = { at: Math.max(Math.ceil(at), this.current), seq: this.seq++, task, cancelled: false };
    this.push(entry);
    return {
      cancel: () => {
        if (entry.cancelled) return;
        entry.cancelled = true;
        this.cancelledCount++;
        // Drop cancelled entries in bulk so a clock that is rarely advanced does not grow without bound.
        if (this.cancelledCount > 1024 && this.cancelledCount * 2 > this.heap.length) this.compact();
      },
    };
  }

  /** Timers still waiting (cancelled ones excluded). */
  pending(): number {
    return this.heap.length - this.cancelledCount;
  }

  /** Moves time forward by `ms`, running every timer that falls due on the way. */
  advance(ms: Millis): Promise<void> {
    if (ms < 0) throw new RangeError(`advance: ms must be >= 0, got ${ms}`);
    return this.advanceTo(this.current + ms);
  }

  /** Moves time forward to `target`; calls made while an advance runs queue behind it. */
  advanceTo(target: Millis): Promise<void> {
    const run = this.running.then(() => this.runUntil(Math.floor(target)));
    this.running = run.catch(() => undefined);
    return run;
  }

  private async runUntil(target: Millis): Promise<void> {
    for (;;) {
      const next = this.peek();
      if (next === undefined || next.at > target) break;
      this.pop();
      if (next.cancelled) {
        this.cancelledCount--;
        continue;
      }
      next.cancelled = true; // so a late cancel() is a no-op
      this.current = Math.max(this.current, next.at);
      await next.task();
    }
    this.current = Math.max(this.current, target);
  }

  private peek(): Entry | undefined {
    return this.heap[0];
  }

  private compact(): void {
    const live = this.heap.filter((e) => !e.cancelled);
    this.heap = [];
    this.cancelledCount = 0;
    for (const e of live) this.push(e);
  }

  private static before(a: Entry, b: Entry): boolean {
    return a.at < b.at || (a.at === b.at && a.seq < b.seq);
  }

  private push(entry: Entry): void {
    const h = this.heap;
    h.push(entry);
    let i = h.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const p = h[parent] as Entry;
      if (!VirtualClock.before(entry, p)) break;
      h[i] = p;
      i = parent;
    }
    h[i] = entry;
  }

  private pop(): void {
    const h = this.heap;
    const last = h.pop();
    if (last === undefined || h.length === 0) return;
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= h.length) break;
      const right = left + 1;
      const child = right < h.length && VirtualClock.before(h[right] as Entry, h[left] as Entry) ? right : left;
      if (!VirtualClock.before(h[child] as Entry, last)) break;
      h[i] = h[child] as Entry;
      i = child;
    }
    h[i] = last;
  }
}
