import type { Millis, Scheduler, Task, Timer } from '../src/ports/clock.js';

interface Entry {
  at: Millis;
  seq: number;
  task: Task;
  cancelled: boolean;
}

/**
 * Virtual time on which timers due in the same millisecond run newest first. Real time gives such
 * timers no order (Node counts a timeout from the event loop's cached time, not from `Date.now()`),
 * so code that relies on registration order fails there now and then; here it fails every time.
 */
export class NewestFirstClock implements Scheduler {
  private current: Millis;
  private seq = 0;
  private entries: Entry[] = [];

  constructor(start: Millis = Date.UTC(2026, 0, 5, 9, 0, 0)) {
    this.current = start;
  }

  now(): Millis {
    return this.current;
  }

  at(at: Millis, task: Task): Timer {
    const entry: Entry = { at: Math.max(Math.ceil(at), this.current), seq: this.seq++, task, cancelled: false };
    this.entries.push(entry);
    return { cancel: () => (entry.cancelled = true) };
  }

  /** Moves time forward by `ms`, running (and awaiting) every timer that falls due on the way. */
  async advance(ms: Millis): Promise<void> {
    const target = this.current + ms;
    for (;;) {
      let next: Entry | undefined;
      for (const e of this.entries) {
        if (!e.cancelled && e.at <= target && (next === undefined || e.at < next.at || (e.at === next.at && e.seq > next.seq))) next = e;
      }
      if (next === undefined) break;
      next.cancelled = true;
      this.entries = this.entries.filter((e) => !e.cancelled);
      this.current = next.at;
      await next.task();
    }
    this.current = target;
  }
}
