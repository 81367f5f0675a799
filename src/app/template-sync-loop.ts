import type { Millis } from '../core/time.js';
import type { TemplateApi } from '../ports/cloud-api.js';
import type { Scheduler, Timer } from '../ports/clock.js';
import { errorFields, type Logger } from '../ports/logger.js';
import type { TemplateStore } from '../ports/store.js';
import { refreshTemplate, syncTemplates, type TemplateSyncResult } from './sync-templates.js';

export interface TemplateSyncLoopDeps {
  store: TemplateStore;
  api: TemplateApi;
  scheduler: Scheduler;
  logger: Logger;
  wabaId: string;
  /** null: only at start and on webhooks. */
  everyMs: Millis | null;
}

export interface TemplateSyncLoop {
  /** A sync now; resolves once it is stored (or has failed, which is logged). */
  syncNow(): Promise<TemplateSyncResult | null>;
  /** Fetch one template again after a webhook changed it; runs in the background. */
  refresh(metaTemplateId: string): void;
  /** Resolves when every sync and refresh under way has finished. */
  idle(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * `serve`'s template sync: once at start, then every `everyMs`, and one template at a time when a
 * webhook says it changed. Failures are logged at warn and retried on the next round; never fatal,
 * since sending goes on with the templates already stored.
 */
export function startTemplateSyncLoop(deps: TemplateSyncLoopDeps): TemplateSyncLoop {
  const { logger } = deps;
  const running = new Set<Promise<unknown>>();
  let timer: Timer | null = null;
  let stopped = false;
  const syncDeps = { store: deps.store, api: deps.api, now: () => deps.scheduler.now() };

  const track = <T>(work: Promise<T>): Promise<T> => {
    running.add(work);
    void work.finally(() => running.delete(work)).catch(() => undefined);
    return work;
  };

  async function syncOnce(): Promise<TemplateSyncResult | null> {
    try {
      const result = await syncTemplates(syncDeps, deps.wabaId);
      if (!result.ok) {
        logger.warn('template sync failed; the templates already stored stay in use', { reason: result.reason });
        return result;
      }
      const { refused, ...counts } = result.report;
      logger.info('templates synced from Meta', { ...counts, refused: refused.length });
      for (const r of refused) logger.warn('template refused by sync', { id: r.id, name: r.name, language: r.language, reason: r.reason });
      return result;
    } catch (error) {
      logger.warn('template sync failed; the templates already stored stay in use', errorFields(error));
      return null;
    }
  }

  const schedule = (): void => {
    if (stopped || deps.everyMs === null) return;
    timer = deps.scheduler.at(deps.scheduler.now() + deps.everyMs, async () => {
      await track(syncOnce());
      schedule();
    });
  };
  const first = track(syncOnce());
  void first.then(schedule);

  return {
    syncNow: () => track(syncOnce()),
    refresh(metaTemplateId) {
      if (stopped) return;
      void track(
        refreshTemplate(syncDeps, metaTemplateId)
          .then((r) => {
            if (!r.ok) logger.warn('template refresh after a webhook failed; the next sync tries again', { reason: r.reason });
          })
          .catch((error: unknown) => logger.warn('template refresh after a webhook failed', errorFields(error))),
      );
    },
    async idle() {
      while (running.size > 0) await Promise.allSettled([...running]);
    },
    async stop() {
      stopped = true;
      timer?.cancel();
      await this.idle();
    },
  };
}
