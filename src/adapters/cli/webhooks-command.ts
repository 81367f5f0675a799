import { processInbox } from '../../app/process-inbox.js';
import type { Policy } from '../../core/policy.js';
import { iso } from '../../core/time.js';
import type { QuarantineStore, Store } from '../../ports/store.js';
import { CliFailure, EXIT } from './exit-codes.js';

/** `pacer webhooks quarantine`: payloads the processor could not apply, with the reason. */
export async function listQuarantine(store: QuarantineStore, limit: number, json: boolean): Promise<string> {
  const rows = await store.listQuarantinedInbox(0, limit);
  const items = rows.map((r) => ({ id: r.id, receivedAt: iso(r.receivedAt), bytes: r.raw.byteLength, signed: r.signatureOk, reason: r.quarantineReason }));
  if (json) return JSON.stringify(items, null, 2);
  if (items.length === 0) return 'No quarantined webhooks.';
  return [`${items.length} quarantined webhook(s); replay them after a fix with: pacer webhooks replay --all`, ...items.map((i) => `#${i.id}  ${i.receivedAt}  ${i.bytes} B  ${i.reason ?? ''}`)].join('\n');
}

/** `pacer webhooks replay`: release quarantined payloads and process the inbox again. */
export async function replayQuarantine(store: QuarantineStore & Pick<Store, 'listUnprocessedInbox' | 'transaction'>, ids: readonly number[] | null, policy: Policy, json: boolean): Promise<string> {
  if (ids !== null && ids.length === 0) throw new CliFailure('Name the payloads to replay (--id 12 --id 13) or use --all.', EXIT.usage);
  const released = await store.releaseQuarantine(ids);
  const totals = { released, processed: 0, items: 0, quarantined: 0 };
  for (;;) {
    const r = await processInbox({ store, policy, clock: { now: () => Date.now() }, random: Math.random });
    if (r.rows === 0) break;
    totals.processed += r.rows;
    totals.items += r.items;
    totals.quarantined += r.quarantined;
  }
  if (json) return JSON.stringify(totals);
  return `Released ${released}; processed ${totals.processed} payload(s) with ${totals.items} item(s); ${totals.quarantined} quarantined again.`;
}
