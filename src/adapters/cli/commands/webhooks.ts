import { listQuarantine, replayQuarantine } from '../../../app/webhook-quarantine.js';
import { iso } from '../../../core/time.js';
import type { CliCommand, JsonOption } from '../cli-command.js';
import { CliFailure, EXIT } from '../exit-codes.js';

export const webhooksQuarantineCommand: CliCommand = {
  path: ['webhooks', 'quarantine'],
  define: (c) =>
    c
      .description('List webhook payloads that could not be applied, with the reason')
      .option('--limit <n>', 'how many to list', '100')
      .option('--json', 'JSON output'),
  run:
    ({ out, withStore }) =>
    async (opts: { limit: string } & JsonOption) => {
      const limit = Number(opts.limit);
      if (!Number.isInteger(limit) || limit < 1) throw new CliFailure('--limit must be a positive whole number', EXIT.usage);
      await withStore(async (store) => {
        const items = (await listQuarantine(store, 0, limit)).map((p) => ({ ...p, receivedAt: iso(p.receivedAt) }));
        if (opts.json) out(JSON.stringify(items, null, 2));
        else if (items.length === 0) out('No quarantined webhooks.');
        else
          out(
            [
              `${items.length} quarantined webhook(s); replay them after a fix with: pacer webhooks replay --all`,
              ...items.map((i) => `#${i.id}  ${i.receivedAt}  ${i.bytes} B  ${i.reason ?? ''}`),
            ].join('\n'),
          );
      });
    },
};

export const webhooksReplayCommand: CliCommand = {
  path: ['webhooks', 'replay'],
  define: (c) =>
    c
      .description('Send quarantined payloads back through the processor (after a fix)')
      .option('--id <id...>', 'quarantined payload ids')
      .option('--all', 'every quarantined payload')
      .option('--json', 'JSON output'),
  run:
    ({ out, withStore, policy, now, random, parseWebhook }) =>
    async (opts: { id?: string[]; all?: boolean } & JsonOption) => {
      const ids = opts.all ? null : (opts.id ?? []).map(Number);
      if (ids !== null && ids.some((n) => !Number.isInteger(n) || n < 1))
        throw new CliFailure('--id takes payload ids as shown by pacer webhooks quarantine', EXIT.usage);
      if (ids !== null && ids.length === 0) throw new CliFailure('Name the payloads to replay (--id 12 --id 13) or use --all.', EXIT.usage);
      await withStore(async (store) => {
        // No inbox pump runs in the CLI: the replayed payloads are processed here, before the answer.
        const r = await replayQuarantine(store, ids, {
          kind: 'drain',
          inbox: { store, policy: policy(), clock: { now }, random, parse: parseWebhook },
        });
        out(
          opts.json
            ? JSON.stringify(r)
            : `Released ${r.released}; processed ${r.processed} payload(s) with ${r.items} item(s); ${r.quarantined} quarantined again.`,
        );
      });
    },
};
