import type { Millis } from '../core/time.js';
import { StoreError } from '../ports/store.js';
import type { PaceSeen, PassProgress, PassStep, TickResult } from './dispatcher.js';

/** Why the next pass comes when it does. */
export type NextPassReason = 'busy' | 'paced' | 'idle' | 'queued' | 'after_failure';

/** Steps of the dispatcher loop around the pass itself. */
export type LoopStep = 'applying stored webhooks' | 'finding the next work';

/**
 * What one process's dispatcher loop is doing: enough to tell a worker waiting on purpose (paced,
 * idle until a row falls due or a lease runs out, backing off after a failure) from one stuck in a step. Times are
 * epoch milliseconds; `now` is when the report was made. No values from rows or errors' details.
 */
export interface DispatchStatus {
  now: Millis;
  /** Passes finished since start, and how many of them failed. */
  passes: number;
  failures: number;
  /** The pass under way, null between passes. */
  running: { startedAt: Millis; step: PassStep | LoopStep | null; stepSince: Millis; rows: number } | null;
  last: { startedAt: Millis; endedAt: Millis; result: TickResult | null; failure: string | null } | null;
  next: { at: Millis; why: NextPassReason } | null;
  /** The last grant from the sender number's shared bucket. */
  pace: PaceSeen | null;
  /**
   * Wake-ups by queued work (`next.why` is `queued` when one brought the next pass forward), and how
   * other processes' work is heard of: `notify` (PostgreSQL LISTEN, `connected` false while it is
   * re-established) or `poll` every `everyMs` (SQLite); null when nothing watches.
   */
  wake: { count: number; lastAt: Millis | null; across: { by: 'notify' | 'poll'; everyMs: Millis | null; connected: boolean } | null };
}

/** Kept by the loop as it runs; `report` reads it without touching the store. */
export class DispatchTracker {
  private passes = 0;
  private failures = 0;
  private startedAt: Millis | null = null;
  private loopStep: { step: LoopStep; since: Millis } | null = null;
  private last: DispatchStatus['last'] = null;
  private next: DispatchStatus['next'] = null;
  private wakes = 0;
  private lastWakeAt: Millis | null = null;

  constructor(private readonly now: () => Millis) {}

  begin(): void {
    this.startedAt = this.now();
    this.next = null;
    this.loopStep = null;
  }

  step(step: LoopStep | null): void {
    this.loopStep = step === null ? null : { step, since: this.now() };
  }

  end(outcome: { result: TickResult } | { error: unknown }, next: { at: Millis; why: NextPassReason }): void {
    const failed = 'error' in outcome;
    this.passes++;
    if (failed) this.failures++;
    this.last = {
      startedAt: this.startedAt ?? this.now(),
      endedAt: this.now(),
      result: failed ? null : outcome.result,
      failure: failed ? describeFailure(outcome.error) : null,
    };
    this.startedAt = null;
    this.loopStep = null;
    this.next = next;
  }

  woken(at: Millis): void {
    this.wakes++;
    this.lastWakeAt = at;
  }

  /** A wake-up moved the pending pass. */
  rescheduled(next: { at: Millis; why: NextPassReason }): void {
    this.next = next;
  }

  report(
    progress: { pass: PassProgress | null; pace: PaceSeen | null },
    watch: { by: 'notify' | 'poll'; everyMs: Millis | null; connected(): boolean } | null,
  ): DispatchStatus {
    const { pass, pace } = progress;
    const inPass = pass ?? (this.loopStep === null ? null : { step: this.loopStep.step, since: this.loopStep.since, rows: 0 });
    return {
      now: this.now(),
      passes: this.passes,
      failures: this.failures,
      running:
        this.startedAt === null
          ? null
          : { startedAt: this.startedAt, step: inPass?.step ?? null, stepSince: inPass?.since ?? this.startedAt, rows: inPass?.rows ?? 0 },
      last: this.last,
      next: this.next,
      pace,
      wake: {
        count: this.wakes,
        lastAt: this.lastWakeAt,
        across: watch === null ? null : { by: watch.by, everyMs: watch.everyMs, connected: watch.connected() },
      },
    };
  }
}

/** The kind of failure, never its message: the report may be served where anyone can read it. */
function describeFailure(error: unknown): string {
  if (error instanceof StoreError) return `store ${error.code} in ${error.operation}`;
  return error instanceof Error ? error.name : typeof error;
}
