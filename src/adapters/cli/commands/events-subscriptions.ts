import { subscribeEvents, SUBSCRIBABLE_TYPES } from '../../../app/event-subscriptions.js';
import type { EventSubscription, Store } from '../../../ports/store.js';
import { subscriptionJson } from '../../presenters/event-json.js';
import type { CliCommand, JsonOption } from '../cli-command.js';
import { CliFailure, EXIT } from '../exit-codes.js';

/** `pacer events …`: subscriptions to Pacer's outbound events (signed webhooks to a CRM). */

export function positiveId(text: string, what: string): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1) throw new CliFailure(`${what} is a number as shown by pacer events subscriptions`, EXIT.usage);
  return n;
}

type SubscriptionJson = ReturnType<typeof subscriptionJson>;

function line(s: SubscriptionJson): string {
  const only = [
    s.campaignId === null ? '' : ` campaign #${s.campaignId}`,
    s.phoneNumberId === null ? '' : ` number ${s.phoneNumberId}`,
  ].join('');
  const d = s.deliveries;
  return (
    `#${s.id}  ${s.enabled ? 'enabled ' : 'DISABLED'}  ${s.url}  ${s.eventTypes.join(',')}${only}` +
    `  pending ${d.pending}, delivered ${d.delivered}, failed ${d.failed}${s.description === null ? '' : `  (${s.description})`}`
  );
}

async function withTotals(store: Store, subscriptions: readonly EventSubscription[], now: number): Promise<SubscriptionJson[]> {
  const totals = new Map((await store.eventDeliveryTotals(now)).map((t) => [t.subscriptionId, t]));
  return subscriptions.map((s) => subscriptionJson(s, totals.get(s.id)));
}

export const eventsSubscribeCommand: CliCommand = {
  path: ['events', 'subscribe'],
  define: (c) =>
    c
      .description('Subscribe a URL to events; prints the signing secret once (it cannot be shown again)')
      .argument('<url>', 'where deliveries are POSTed: https (http only to loopback, or with PACER_MODE=development)')
      .requiredOption('--types <types>', `comma-separated event types, or * for all: ${SUBSCRIBABLE_TYPES.join(', ')}`)
      .option('--campaign <id>', "only this campaign's events")
      .option('--number <phoneNumberId>', "only this sender number's events")
      .option('--description <text>', 'what it is for')
      .option('--secret <whsec>', 'a whsec_ signing secret of your own (default: generated)')
      .option('--json', 'JSON output: the subscription with its secret'),
  run:
    ({ out, withStore, now, mode }) =>
    async (
      url: string,
      opts: { types: string; campaign?: string; number?: string; description?: string; secret?: string } & JsonOption,
    ) => {
      const eventTypes = opts.types
        .split(',')
        .map((t) => t.trim())
        .filter((t) => t !== '');
      const campaignId = opts.campaign === undefined ? null : positiveId(opts.campaign, '--campaign');
      await withStore(async (store) => {
        const r = await subscribeEvents(
          store,
          { url, eventTypes, campaignId, phoneNumberId: opts.number ?? null, description: opts.description ?? null, secret: opts.secret },
          mode(),
          now(),
        );
        if (r.kind === 'invalid') {
          const flag = {
            url: '<url>',
            eventTypes: '--types',
            campaignId: '--campaign',
            phoneNumberId: '--number',
            description: '--description',
            secret: '--secret',
          };
          throw new CliFailure(r.issues.map((i) => `${flag[i.field]}: expected ${i.message}`).join('\n'), EXIT.usage);
        }
        const json = { ...subscriptionJson(r.subscription), secret: r.secret };
        out(
          opts.json
            ? JSON.stringify(json, null, 2)
            : `Subscription #${json.id}: ${json.url} (${json.eventTypes.join(', ')})\nSigning secret:\n${r.secret}\n` +
                'Store it now: it verifies the webhook-signature header (Standard Webhooks) and is never shown again.',
        );
      });
    },
};

export const eventsSubscriptionsCommand: CliCommand = {
  path: ['events', 'subscriptions'],
  define: (c) =>
    c.description('List event subscriptions with their deliveries counted (never their secrets)').option('--json', 'JSON output'),
  run:
    ({ out, withStore, now }) =>
    async (opts: JsonOption) => {
      await withStore(async (store) => {
        const items = await withTotals(store, await store.listEventSubscriptions(), now());
        out(opts.json ? JSON.stringify(items, null, 2) : items.length === 0 ? 'No event subscriptions.' : items.map(line).join('\n'));
      });
    },
};

function switchCommand(name: 'enable' | 'disable'): CliCommand {
  const enabled = name === 'enable';
  return {
    path: ['events', name],
    define: (c) =>
      c
        .description(
          enabled ? 'Send to a subscription again, starting with what waited' : 'Stop sending to a subscription; what it is owed waits',
        )
        .argument('<id>', 'the subscription id')
        .option('--json', 'JSON output'),
    run:
      ({ out, withStore, now }) =>
      async (id: string, opts: JsonOption) => {
        const n = positiveId(id, '<id>');
        await withStore(async (store) => {
          if (!(await store.setEventSubscriptionEnabled(n, enabled, now()))) throw new CliFailure(`No event subscription #${n}.`);
          out(opts.json ? JSON.stringify({ id: n, enabled }) : `Subscription #${n} ${enabled ? 'enabled' : 'disabled'}.`);
        });
      },
  };
}

export const eventsEnableCommand = switchCommand('enable');
export const eventsDisableCommand = switchCommand('disable');

export const eventsUnsubscribeCommand: CliCommand = {
  path: ['events', 'unsubscribe'],
  define: (c) =>
    c
      .description('Delete a subscription with its deliveries and their attempts (the events stay)')
      .argument('<id>', 'the subscription id')
      .option('--json', 'JSON output'),
  run:
    ({ out, withStore }) =>
    async (id: string, opts: JsonOption) => {
      const n = positiveId(id, '<id>');
      await withStore(async (store) => {
        if (!(await store.deleteEventSubscription(n))) throw new CliFailure(`No event subscription #${n}.`);
        out(opts.json ? JSON.stringify({ id: n, deleted: true }) : `Subscription #${n} deleted.`);
      });
    },
};
