import { z } from 'zod';
import { parseDuration } from '../core/duration.js';
import { DEFAULT_DELIVERY_RETRY, type DeliveryRetrySettings } from '../core/event-retry.js';
import { DAY, HOUR, MINUTE, SECOND, type Millis } from '../core/time.js';

/** How this process delivers events to subscribers (docs/events.md). */
export interface EventsConfig {
  /** Whether `serve` / `worker` run the delivery loop (off: leave delivery to other processes). */
  deliver: boolean;
  /** Requests in flight at once, across subscriptions. */
  concurrency: number;
  /** From sending a delivery to its complete answer. */
  timeoutMs: Millis;
  /** How often an idle process looks for events other processes recorded. */
  pollMs: Millis;
  retry: DeliveryRetrySettings;
  /** How long events are kept after they occurred, once nothing is owed on them; null: for ever. */
  retentionMs: Millis | null;
}

function durationWithin(min: Millis, max: Millis, example: string) {
  return z.string().transform((raw, ctx): Millis => {
    const ms = parseDuration(raw);
    if (ms !== null && ms >= min && ms <= max) return ms;
    ctx.addIssue({ code: 'custom', message: `a duration like ${example}, from ${text(min)} to ${text(max)}` });
    return z.NEVER;
  });
}

/** `30d`, `12h`; `off` keeps events for ever. */
const retention = z.string().transform((raw, ctx): Millis | null => {
  if (raw.trim() === 'off') return null;
  const ms = parseDuration(raw);
  if (ms !== null && ms >= HOUR && ms <= 3650 * DAY) return ms;
  ctx.addIssue({ code: 'custom', message: 'a duration like 30d, from 1h to 3650d, or off to keep events for ever' });
  return z.NEVER;
});

const text = (ms: Millis): string => (ms % MINUTE === 0 ? `${ms / MINUTE}m` : ms % SECOND === 0 ? `${ms / SECOND}s` : `${ms}ms`);

/** `first,longest,give-up`, e.g. `5s,1h,3d`. */
const retry = z.string().transform((raw, ctx): DeliveryRetrySettings => {
  const parts = raw.split(',').map((p) => parseDuration(p.trim()));
  const [firstMs, maxMs, giveUpAfterMs] = parts;
  if (parts.length === 3 && firstMs != null && maxMs != null && giveUpAfterMs != null && firstMs >= 1 && maxMs >= firstMs) {
    return { firstMs, maxMs, giveUpAfterMs };
  }
  ctx.addIssue({ code: 'custom', message: 'first gap, longest gap and when to give up, like 5s,1h,3d (the longest at least the first)' });
  return z.NEVER;
});

export const eventsEnvSchema = {
  PACER_EVENTS_DELIVER: z.enum(['true', 'false']).default('true'),
  PACER_EVENTS_CONCURRENCY: z.coerce.number().int().min(1).max(1000).default(16),
  PACER_EVENTS_TIMEOUT: durationWithin(SECOND, 5 * MINUTE, '10s').default(10 * SECOND),
  PACER_EVENTS_POLL: durationWithin(50, MINUTE, '500ms').default(500),
  PACER_EVENTS_RETRY: retry.default(DEFAULT_DELIVERY_RETRY),
  PACER_EVENTS_RETENTION: retention.default(30 * DAY),
};

export type EventsEnv = z.output<z.ZodObject<typeof eventsEnvSchema>>;

export function eventsFromEnv(e: EventsEnv): EventsConfig {
  return {
    deliver: e.PACER_EVENTS_DELIVER === 'true',
    concurrency: e.PACER_EVENTS_CONCURRENCY,
    timeoutMs: e.PACER_EVENTS_TIMEOUT,
    pollMs: e.PACER_EVENTS_POLL,
    retry: { ...e.PACER_EVENTS_RETRY },
    retentionMs: e.PACER_EVENTS_RETENTION,
  };
}
