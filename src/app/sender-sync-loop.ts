import type { Millis } from '../core/time.js';
import type { Scheduler, Timer } from '../ports/clock.js';
import { errorFields, type Logger } from '../ports/logger.js';
import { syncSenders, type SenderAccount, type SenderSyncReport, type SyncSendersDeps } from './sync-senders.js';

export interface SenderSyncLoop {
  /** A sync now; resolves once it is stored (failures are logged and reported, never thrown). */
  syncNow(): Promise<SenderSyncReport | null>;
  stop(): Promise<void>;
}

/**
 * Every number's health read from Meta again every `everyMs` (the first read is the caller's, at
 * start, before the dispatchers begin). Failures are logged at warn and tried on the next round:
 * sending goes on with what is stored, and webhooks keep it current meanwhile.
 */
export function startSenderSyncLoop(
  deps: { store: SyncSendersDeps['store']; scheduler: Scheduler; logger: Logger },
  accounts: readonly SenderAccount[],
  everyMs: Millis | null,
): SenderSyncLoop {
  let timer: Timer | null = null;
  let stopped = false;
  let running: Promise<unknown> = Promise.resolve();

  const syncOnce = async (): Promise<SenderSyncReport | null> => {
    try {
      const report = await syncSenders({ store: deps.store, now: () => deps.scheduler.now() }, accounts);
      logSenderSync(deps.logger, report);
      return report;
    } catch (error) {
      deps.logger.warn('sender sync failed; the numbers stored stay in use', errorFields(error));
      return null;
    }
  };
  const schedule = (): void => {
    if (stopped || everyMs === null) return;
    timer = deps.scheduler.at(deps.scheduler.now() + everyMs, () => {
      const round = syncOnce().then(schedule);
      running = round;
      return round;
    });
  };
  schedule();
  return {
    syncNow: () => {
      const round = syncOnce();
      running = round;
      return round;
    },
    async stop() {
      stopped = true;
      timer?.cancel();
      await running;
    },
  };
}

/** One line per account at info, and each problem at warn. */
export function logSenderSync(logger: Logger, report: SenderSyncReport): void {
  for (const a of report.accounts) {
    logger.info('sender numbers read from Meta', { account: a.account, numbers: a.numbers.length, pages: a.pages });
    for (const problem of a.problems) logger.warn('sender sync problem; the numbers stored stay in use', { account: a.account, problem });
  }
}
