import { syncSenders, type SenderSyncReport } from '../../../app/sync-senders.js';
import { messagingLimitOf } from '../../../core/messaging-limit.js';
import type { Sender, SenderChange } from '../../../ports/store.js';
import type { CliCommand, JsonOption } from '../cli-command.js';
import { CliFailure, EXIT } from '../exit-codes.js';

const HISTORY_DAYS = 30;

export const senderSyncCommand: CliCommand = {
  path: ['sender', 'sync'],
  define: (c) =>
    c
      .description("Read every number of each configured WhatsApp Business Account with Meta's status, quality, throughput and limit")
      .option('--json', 'JSON output'),
  run:
    ({ out, withStore, now, senderAccounts }) =>
    async (opts: JsonOption) => {
      const accounts = senderAccounts();
      try {
        await withStore(async (store) => {
          const report = await syncSenders({ store, now }, accounts);
          out(opts.json ? JSON.stringify(report) : syncText(report));
          if (report.accounts.some((a) => !a.ok)) throw new CliFailure('sender sync: some numbers could not be read (above)', EXIT.failure);
        });
      } finally {
        await Promise.all(accounts.map((a) => a.api.close()));
      }
    },
};

function syncText(r: SenderSyncReport): string {
  const lines = [`Numbers synced: ${r.added} added, ${r.updated} updated, ${r.unchanged} unchanged.`];
  for (const a of r.accounts) {
    const pages = a.pages > 0 ? ` from ${a.pages} page(s)` : '';
    lines.push(`Account ${a.account}: ${a.numbers.length} number(s)${pages}${a.numbers.length > 0 ? `: ${a.numbers.join(', ')}` : ''}.`);
    if (a.notConfigured.length > 0) lines.push(`  Listed but not configured (never sent from): ${a.notConfigured.join(', ')}.`);
    for (const p of a.problems) lines.push(`  Problem: ${p}`);
  }
  return lines.join('\n');
}

export const senderListCommand: CliCommand = {
  path: ['sender', 'list'],
  define: (c) => c.description("Every sender number with its account, health and Meta's limit").option('--json', 'JSON output'),
  run:
    ({ out, withStore }) =>
    async (opts: JsonOption) => {
      await withStore(async (store) => {
        const senders = await store.listSenders();
        if (opts.json) return out(JSON.stringify({ senders: senders.map(senderJson) }));
        if (senders.length === 0)
          return out('No sender numbers yet: run pacer sender sync (or create a campaign from WHATSAPP_PHONE_NUMBER_ID).');
        out(senders.map(senderLine).join('\n'));
      });
    },
};

export const senderShowCommand: CliCommand = {
  path: ['sender', 'show'],
  define: (c) =>
    c
      .description('One sender number: its health as Meta last said it, and its changes over 30 days')
      .argument('<phone-number-id>', "Meta's phone number id")
      .option('--json', 'JSON output'),
  run:
    ({ out, withStore, now }) =>
    async (phoneNumberId: string, opts: JsonOption) => {
      await withStore(async (store) => {
        const sender = await store.getSender(phoneNumberId);
        if (sender === null)
          throw new CliFailure(
            `no sender number ${phoneNumberId}: pacer sender list shows the known ones; pacer sender sync reads them from Meta`,
            EXIT.usage,
          );
        const changes = await store.senderChanges(sender.id, now() - HISTORY_DAYS * 86_400_000, 200);
        if (opts.json) return out(JSON.stringify({ sender: senderJson(sender), changes }));
        out([senderLine(sender), ...detailLines(sender), ...changeLines(changes)].join('\n'));
      });
    },
};

/** The `--json` shape of a sender: the store's fields, times as ISO text. */
function senderJson(s: Sender): Record<string, unknown> {
  return {
    ...s,
    stateUntil: s.stateUntil === null ? null : new Date(s.stateUntil).toISOString(),
    syncedAt: s.syncedAt === null ? null : new Date(s.syncedAt).toISOString(),
    updatedAt: new Date(s.updatedAt).toISOString(),
    messagingLimitPerDay: messagingLimitOf(s.messagingLimitTier),
  };
}

function senderLine(s: Sender): string {
  const name = s.verifiedName === null ? '' : ` ${s.verifiedName}`;
  const state = s.state === 'ok' ? 'sending' : `${s.state}${s.stateReason === null ? '' : ` (${s.stateReason})`}`;
  return `${s.phoneNumberId}  ${s.displayNumber}${name}: ${state}; quality ${s.qualityRating ?? 'unknown'}, ${s.throughputMps}/s, limit ${s.messagingLimitTier ?? 'unknown'}`;
}

function detailLines(s: Sender): string[] {
  return [
    `  Account ${s.businessAccountId ?? 'unknown'}, portfolio ${s.portfolioId ?? 'its own'} (its numbers share one messaging limit).`,
    `  Meta status ${s.metaStatus ?? 'not read'}, name ${s.nameStatus ?? 'not read'}, throughput level ${s.throughputLevel ?? 'not read'}.`,
    `  Last read from Meta: ${s.syncedAt === null ? 'never (pacer sender sync)' : new Date(s.syncedAt).toISOString()}.`,
  ];
}

function changeLines(changes: readonly SenderChange[]): string[] {
  if (changes.length === 0) return [`  No changes in the last ${HISTORY_DAYS} days.`];
  return [
    `  Changes in the last ${HISTORY_DAYS} days:`,
    ...changes.map(
      (c) =>
        `    ${new Date(c.at).toISOString()}  ${c.source}: quality ${c.qualityRating ?? 'unknown'}, limit ${c.messagingLimitTier ?? 'unknown'}, ${c.state}${c.stateReason === null ? '' : ` (${c.stateReason})`}`,
    ),
  ];
}
