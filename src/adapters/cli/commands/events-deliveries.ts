import { pruneEvents } from '../../../app/prune-events.js';
import { parseDuration } from '../../../core/duration.js';
import { HOUR } from '../../../core/time.js';
import type { ReplaySelection } from '../../../ports/store.js';
import { attemptJson, deliveryJson, eventJson, subscriptionJson } from '../../presenters/event-json.js';
import type { CliCommand, JsonOption } from '../cli-command.js';
import { CliFailure, EXIT } from '../exit-codes.js';
import { positiveId } from './events-subscriptions.js';

/** `pacer events show|attempts|replay|prune`: what became of the events, and sending them again. */

export const eventsShowCommand: CliCommand = {
  path: ['events', 'show'],
  define: (c) =>
    c
      .description('Show a subscription and its deliveries not yet delivered (pending, and failed for good)')
      .argument('<id>', 'the subscription id')
      .option('--limit <n>', 'how many deliveries to list', '20')
      .option('--json', 'JSON output'),
  run:
    ({ out, withStore, now }) =>
    async (id: string, opts: { limit: string } & JsonOption) => {
      const n = positiveId(id, '<id>');
      const limit = Number(opts.limit);
      if (!Number.isInteger(limit) || limit < 1 || limit > 1000)
        throw new CliFailure('--limit must be a whole number from 1 to 1000', EXIT.usage);
      await withStore(async (store) => {
        const s = await store.getEventSubscription(n);
        if (s === null) throw new CliFailure(`No event subscription #${n}.`);
        const totals = (await store.eventDeliveryTotals(now())).find((t) => t.subscriptionId === n);
        const failed = await store.listEventDeliveries({ subscriptionId: n, status: 'failed', limit });
        const pending = await store.listEventDeliveries({ subscriptionId: n, status: 'pending', limit });
        const json = { subscription: subscriptionJson(s, totals), failed: failed.map(deliveryJson), pending: pending.map(deliveryJson) };
        if (opts.json) return out(JSON.stringify(json, null, 2));
        const d = json.subscription.deliveries;
        const row = (x: (typeof json.failed)[number]) =>
          `  event #${x.eventId}  delivery #${x.id}  ${x.attempts} attempt(s)  last ${x.lastAttemptAt ?? 'never'}  ${x.lastStatusCode ?? ''} ${x.lastError ?? ''}`;
        out(
          [
            `Subscription #${s.id} (${s.enabled ? 'enabled' : 'disabled'}): ${s.url}`,
            `Types: ${s.eventTypes.join(', ')}${s.campaignId === null ? '' : `; campaign #${s.campaignId}`}${s.phoneNumberId === null ? '' : `; number ${s.phoneNumberId}`}`,
            `Deliveries: ${d.pending} pending${d.oldestPendingAt === null ? '' : ` (oldest queued ${d.oldestPendingAt})`}, ${d.delivered} delivered, ${d.failed} failed`,
            ...(failed.length > 0 ? ['Failed for good (pacer events replay --event <id> sends them again):', ...json.failed.map(row)] : []),
            ...(pending.length > 0 ? ['Pending:', ...json.pending.map(row)] : []),
          ].join('\n'),
        );
      });
    },
};

export const eventsAttemptsCommand: CliCommand = {
  path: ['events', 'attempts'],
  define: (c) =>
    c
      .description("Show an event and, for each subscription, its delivery's attempts: time, status code, error, duration")
      .argument('<event-id>', 'the event id (as pacer events show lists it)')
      .option('--json', 'JSON output'),
  run:
    ({ out, withStore }) =>
    async (id: string, opts: JsonOption) => {
      const n = positiveId(id, '<event-id>');
      await withStore(async (store) => {
        const event = await store.getOutboundEvent(n);
        if (event === null) throw new CliFailure(`No event #${n} (events no subscription took are not kept).`);
        const deliveries = await store.listEventDeliveries({ eventId: n, limit: 1000 });
        const json = {
          event: eventJson(event),
          deliveries: await Promise.all(
            deliveries.map(async (d) => ({ ...deliveryJson(d), history: (await store.listDeliveryAttempts(d.id)).map(attemptJson) })),
          ),
        };
        if (opts.json) return out(JSON.stringify(json, null, 2));
        out(
          [
            `Event #${n} ${event.type} at ${json.event.occurredAt}`,
            ...json.deliveries.flatMap((d) => [
              `To subscription #${d.subscriptionId}: ${d.status}, ${d.attempts} attempt(s) (webhook-id ${d.webhookId})`,
              ...d.history.map(
                (a) => `  ${a.at}  ${a.statusCode ?? 'no answer'}  ${a.durationMs} ms${a.error === null ? '' : `  ${a.error}`}`,
              ),
            ]),
          ].join('\n'),
        );
      });
    },
};

function time(text: string | undefined, flag: string): number | undefined {
  if (text === undefined) return undefined;
  const ms = Date.parse(text);
  if (!/^\d{4}-\d\d-\d\d/.test(text) || Number.isNaN(ms))
    throw new CliFailure(`${flag} takes an ISO 8601 time, like 2026-01-05T09:00:00Z`, EXIT.usage);
  return ms;
}

export const eventsReplayCommand: CliCommand = {
  path: ['events', 'replay'],
  define: (c) =>
    c
      .description('Queue deliveries again: of chosen events, or of the events that occurred in a time range (same webhook-id)')
      .option('--event <id...>', 'event ids')
      .option('--from <time>', 'events that occurred at or after this ISO time (with --to)')
      .option('--to <time>', 'and before this ISO time')
      .option('--subscription <id>', "only this subscription's deliveries")
      .option('--json', 'JSON output'),
  run:
    ({ out, withStore, now }) =>
    async (opts: { event?: string[]; from?: string; to?: string; subscription?: string } & JsonOption) => {
      const from = time(opts.from, '--from');
      const to = time(opts.to, '--to');
      const only = opts.subscription === undefined ? {} : { subscriptionId: positiveId(opts.subscription, '--subscription') };
      const ranged = from !== undefined || to !== undefined;
      if ((opts.event === undefined) === !ranged)
        throw new CliFailure('Name the events (--event 12 --event 13) or a time range (--from and --to).', EXIT.usage);
      let selection: ReplaySelection;
      if (opts.event !== undefined) selection = { eventIds: opts.event.map((e) => positiveId(e, '--event')), ...only };
      else if (from === undefined || to === undefined) throw new CliFailure('A time range needs both --from and --to.', EXIT.usage);
      else if (from >= to) throw new CliFailure('--to must be after --from.', EXIT.usage);
      else selection = { from, to, ...only };
      await withStore(async (store) => {
        const requeued = await store.replayEventDeliveries(selection, now());
        out(
          opts.json
            ? JSON.stringify({ requeued })
            : `Queued ${requeued} deliver${requeued === 1 ? 'y' : 'ies'} again; the delivery loop of pacer serve or worker sends them.`,
        );
      });
    },
};

export const eventsPruneCommand: CliCommand = {
  path: ['events', 'prune'],
  define: (c) =>
    c
      .description(
        'Delete events that occurred before a cut-off and that nothing still owes, with their deliveries and attempts (pacer serve and worker do it hourly, PACER_EVENTS_RETENTION)',
      )
      .requiredOption('--older-than <duration>', 'how old an event must be, like 30d or 12h (at least 1h)')
      .option('--json', 'JSON output'),
  run:
    ({ out, withStore, now }) =>
    async (opts: { olderThan: string } & JsonOption) => {
      const age = parseDuration(opts.olderThan);
      if (age === null || age < HOUR)
        throw new CliFailure(`--older-than must be a duration of at least 1h, like 30d; got "${opts.olderThan}"`, EXIT.usage);
      await withStore(async (store) => {
        const pruned = await pruneEvents(store, now(), age);
        if (opts.json) return out(JSON.stringify(pruned));
        out(
          `Deleted ${pruned.events} event(s) older than ${opts.olderThan}, with ${pruned.deliveries} deliver${pruned.deliveries === 1 ? 'y' : 'ies'} and ${pruned.attempts} attempt(s). Events with a pending delivery are kept.`,
        );
      });
    },
};
