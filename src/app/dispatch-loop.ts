import type { Policy } from '../core/policy.js';
import { MINUTE, SECOND, type Millis } from '../core/time.js';
import type { Scheduler, Timer } from '../ports/clock.js';
import { errorFields, type Logger } from '../ports/logger.js';
import type { OutboxClaimStore, WorkFilter } from '../ports/store.js';
import type { QueuedWatch, WorkSignal } from '../ports/work-signal.js';
import { checkBreakers } from './check-breakers.js';
import { emptyOutcomeMemo } from '../core/campaign-outcome-window.js';
import { completeFinishedCampaigns } from './complete-campaigns.js';
import { DispatchTracker, type DispatchStatus, type NextPassReason } from './dispatch-status.js';
import { EMPTY, type Dispatcher, type TickResult } from './dispatcher.js';

export const IDLE_POLL = 5 * MINUTE;
export const CHECKS_EVERY = 10 * MINUTE;
export const RETRY_AFTER_FAILURE = 5 * SECOND;
const MIN_PACED_WAIT = 10;
const DUE_RECHECK = 100;

/** Where the next work is, and what the campaign checks read and write. */
export type DispatchLoopStore = Pick<OutboxClaimStore, 'nextWorkAt'> &
  Parameters<typeof checkBreakers>[0] &
  Parameters<typeof completeFinishedCampaigns>[0];

export interface DispatchLoopDeps {
  store: DispatchLoopStore;
  clock: Scheduler;
  policy: Policy;
  /** Claims due rows and processes them: one pass per `tick`. */
  dispatcher: Pick<Dispatcher, 'tick' | 'progress'>;
  /** The inbox processor, drained before each pass (or every `inboxEveryMs`). */
  pump: { drain(): Promise<void> };
  logger: Logger;
  /** Work queued in this process (and, through the store's watch, in others) wakes an idle loop at once. */
  signal?: Pick<WorkSignal, 'onQueued'>;
  /** How other processes' work reaches `signal`, for /healthz; null when nothing watches. */
  watch?: Pick<QueuedWatch, 'by' | 'everyMs' | 'connected'> | null;
}

export interface DispatchLoopOptions {
  /** A busy pass starts this long after the previous one started: the share of throughput one pass takes. */
  paceBurstMs: Millis;
  /**
   * Apply stored webhooks every this often instead of before each pass: for a worker that receives
   * none (the edge applies them as they arrive), where several workers would repeat its work.
   */
  inboxEveryMs?: Millis;
  /** The work this loop sends (its own number's rows): an idle loop sleeps until the next of it. */
  work?: WorkFilter;
  /**
   * Run the campaign checks (breakers, completion) on this loop's clock; default true. A process
   * with a loop per number runs them on one.
   */
  checks?: boolean;
}

/** One pass of the loop as it ended: what it did (or why it failed), and when the next one comes. */
export interface PassReport {
  startedAt: Millis;
  endedAt: Millis;
  outcome: { result: TickResult } | { error: unknown };
  next: { at: Millis; why: NextPassReason };
}

export interface DispatchLoop {
  /** One pass now, outside the schedule (stored webhooks first, unless they have their own loop). */
  tick(): Promise<TickResult>;
  /** What the loop is doing, for /healthz. */
  status(): DispatchStatus;
  /** Calls `listener` after each scheduled pass, its successor already set; returns the unsubscribe. */
  onPass(listener: (pass: PassReport) => void): () => void;
  /** The next scheduled pass, once it has ended: tests await it instead of polling. */
  nextPass(): Promise<PassReport>;
  /**
   * Work was queued, due at `at` (null: now). An idle loop brings its next pass forward to then (never
   * before now); during a pass the wake is kept for its successor. A busy or paced loop comes back
   * soon anyway, and one backing off after a failure keeps its pause.
   */
  wake(at: Millis | null): void;
  /** Cancels what is scheduled and waits for the passes under way (their sends must be recorded). */
  stop(): Promise<void>;
}

/**
 * The dispatcher's schedule, and the campaign checks' and (for workers) the inbox's, all on one
 * clock. Each loop has at most one pending timer: its next pass. A failing pass (the database away
 * for a moment) is logged and tried again; the loop never dies. Starts at once.
 */
export function startDispatchLoop(deps: DispatchLoopDeps, options: DispatchLoopOptions): DispatchLoop {
  const { store, clock, policy, dispatcher, pump, logger } = deps;
  const tracker = new DispatchTracker(() => clock.now());
  const timers: { pass: Timer | null; checks: Timer | null; inbox: Timer | null } = { pass: null, checks: null, inbox: null };
  const listeners = new Set<(pass: PassReport) => void>();
  let stopped = false;
  // The pending pass and why it comes then (null while a pass runs), and the earliest wake a running pass must honour.
  let scheduled: PassReport['next'] | null = null;
  let wokenDuringPass: Millis | null = null;
  // The pending pass was set by an idle pass (a poll, or the next work's time), not at start.
  let idlePoll = false;
  // Passes under way. A graceful stop waits for them: a dispatcher pass has sends in flight, and
  // their answers must be recorded, or those rows are left mid-send and end up unknown.
  const running = new Set<Promise<void>>();
  const tracked = (work: () => Promise<void>) => (): Promise<void> => {
    const pass = work().finally(() => running.delete(pass));
    running.add(pass);
    return pass;
  };

  const tick = async (look = false): Promise<TickResult> => {
    if (options.inboxEveryMs === undefined) {
      tracker.step('applying stored webhooks');
      await pump.drain();
      tracker.step(null);
    }
    // An idle poll looks before it claims: one indexed read, where a pass takes and returns the
    // number's send budget and opens a write transaction to find nothing.
    if (look) {
      tracker.step('finding the next work');
      const at = await store.nextWorkAt(options.work);
      tracker.step(null);
      if (at === null || at > clock.now()) return EMPTY;
    }
    return dispatcher.tick();
  };

  const pass = tracked(async (): Promise<void> => {
    if (stopped) return;
    const polled = scheduled?.why === 'idle' && idlePoll;
    scheduled = null;
    wokenDuringPass = null;
    const startedAt = clock.now();
    tracker.begin();
    let next: PassReport['next'];
    let outcome: PassReport['outcome'];
    try {
      const result = await tick(polled);
      outcome = { result };
      // Held back by the shared throughput: come back when the next token is due. Busy: the next pass
      // one burst's worth of time after this one started (not ended), so the budget flows evenly and
      // the number reaches its full throughput.
      if (result.pacedUntil !== null) next = { at: Math.max(result.pacedUntil, clock.now() + MIN_PACED_WAIT), why: 'paced' };
      else if (result.claimed > 0) next = { at: Math.max(startedAt + options.paceBurstMs, clock.now()), why: 'busy' };
      else {
        tracker.step('finding the next work');
        next = { at: await idleUntil(store, options.work, clock.now()), why: 'idle' };
      }
    } catch (error) {
      logger.error('dispatch failed, retrying', errorFields(error));
      outcome = { error };
      next = { at: clock.now() + RETRY_AFTER_FAILURE, why: 'after_failure' };
    }
    // Queued while the pass ran (maybe after it looked for the next work): the successor must not
    // wait for the idle poll.
    if (wokenDuringPass !== null && next.why === 'idle' && wokenDuringPass < next.at)
      next = { at: Math.max(wokenDuringPass, clock.now()), why: 'queued' };
    wokenDuringPass = null;
    tracker.end(outcome, next);
    const endedAt = clock.now();
    if ('result' in outcome)
      logger.debug('dispatch pass', { pass: outcome.result, ms: endedAt - startedAt, next: next.why, nextInMs: next.at - endedAt });
    idlePoll = next.why === 'idle';
    if (!stopped) passAt(next);
    for (const listener of [...listeners]) listener({ startedAt, endedAt, outcome, next });
  });
  // The one place the next dispatcher pass is set: after each pass, and by `wake` for queued work.
  function passAt(next: PassReport['next']): void {
    timers.pass?.cancel();
    scheduled = next;
    timers.pass = clock.at(next.at, pass);
  }

  function wake(at: Millis | null): void {
    if (stopped) return;
    const now = clock.now();
    const when = Math.max(at ?? now, now);
    tracker.woken(now);
    if (scheduled === null) {
      wokenDuringPass = Math.min(wokenDuringPass ?? Infinity, when);
      return;
    }
    if ((scheduled.why !== 'idle' && scheduled.why !== 'queued') || when >= scheduled.at) return;
    const next = { at: when, why: 'queued' as const };
    tracker.rescheduled(next);
    passAt(next);
  }
  const unsubscribe = deps.signal?.onQueued(wake);

  const breakerMemo = emptyOutcomeMemo();
  const checks = tracked(async (): Promise<void> => {
    if (stopped) return;
    try {
      await checkBreakers(store, policy, clock.now(), undefined, breakerMemo);
      await completeFinishedCampaigns(store, clock.now());
    } catch (error) {
      logger.error('campaign checks failed, retrying', errorFields(error));
    }
    if (!stopped) timers.checks = clock.at(clock.now() + CHECKS_EVERY, checks);
  });

  const inboxEvery = options.inboxEveryMs;
  const inbox = tracked(async (): Promise<void> => {
    if (stopped || inboxEvery === undefined) return;
    await pump.drain(); // the pump reports its own failures and is tried again next time
    if (!stopped) timers.inbox = clock.at(clock.now() + inboxEvery, inbox);
  });

  const onPass = (listener: (p: PassReport) => void): (() => void) => {
    listeners.add(listener);
    return () => void listeners.delete(listener);
  };
  passAt({ at: clock.now(), why: 'idle' });
  if (options.checks !== false) timers.checks = clock.at(clock.now(), checks);
  if (inboxEvery !== undefined) timers.inbox = clock.at(clock.now(), inbox);
  return {
    tick,
    status: () => tracker.report(dispatcher.progress(), deps.watch ?? null),
    wake,
    onPass,
    nextPass: () =>
      new Promise((resolve) => {
        const off = onPass((p) => {
          off();
          resolve(p);
        });
      }),
    async stop() {
      stopped = true;
      unsubscribe?.();
      timers.pass?.cancel();
      timers.checks?.cancel();
      timers.inbox?.cancel();
      await Promise.allSettled([...running]);
    },
  };
}

/**
 * An idle worker sleeps until it next has work (a row falls due, or a lease runs out and must be
 * swept), looking again at least every few minutes. Work due already was missed by a race, not
 * absent (a row fell due while the pass ran, or another worker was claiming it): look again
 * shortly, never after the long idle poll.
 */
async function idleUntil(store: Pick<OutboxClaimStore, 'nextWorkAt'>, work: WorkFilter | undefined, now: Millis): Promise<Millis> {
  const at = await store.nextWorkAt(work);
  if (at === null) return now + IDLE_POLL;
  return at > now ? Math.min(at, now + IDLE_POLL) : now + DUE_RECHECK;
}
