import type { NewOutboundEvent } from '../core/outbound-event.js';
import type { Policy } from '../core/policy.js';
import type { Millis } from '../core/time.js';
import type { Clock } from '../ports/clock.js';
import type { Logger } from '../ports/logger.js';
import type { InboxRow, InboxStore, Sender, Store } from '../ports/store.js';
import type { ParseWebhook } from '../ports/webhook-items.js';
import type { WorkQueued } from '../ports/work-signal.js';
import { applyBatch, applyOneByOne, isTransient, processRow, type PayloadRead, type RowOutcome } from './inbox-apply.js';
import { logEffects } from './log-effects.js';
import type { EffectsApplied } from './send-effects.js';
import { unknownNumberIn } from './webhook-routing.js';

export interface InboxDeps {
  store: Pick<InboxStore, 'listUnprocessedInbox'> & Pick<Store, 'transaction'>;
  policy: Policy;
  clock: Clock;
  random: () => number;
  /** The webhook adapter's parser, passed in by the composition root. */
  parse: ParseWebhook;
  /** Told of rows the batch put back in line (failures to retry, held rows a reply woke), once committed. */
  signal?: WorkQueued;
  /** Where failures' effects that stop sending are reported; none without it. */
  logger?: Logger;
  /**
   * Told, once the batch is stored, of each template (Meta's id) a webhook changed: the webhooks
   * carry only part of a template, so the rest is fetched again (src/app/sync-templates.ts).
   */
  onTemplateChanged?: (metaTemplateId: string) => void;
}

export interface InboxResult {
  rows: number;
  items: number;
  quarantined: number;
}

/** Payloads applied per transaction. */
export const INBOX_BATCH_ROWS = 200;

/**
 * Parses and applies stored webhook payloads, oldest first. A payload that cannot be read, or whose
 * effects cannot be stored, is quarantined with the reason (and can be replayed after a fix); the
 * rest is applied. Everything a payload does is idempotent, so a crash mid-way simply re-applies it.
 */
export async function processInbox(deps: InboxDeps, limit = INBOX_BATCH_ROWS): Promise<InboxResult> {
  const rows = await deps.store.listUnprocessedInbox(0, limit);
  if (rows.length === 0) return { rows: 0, items: 0, quarantined: 0 };
  let queuedAt: Millis | null = null;
  const queued = (at: Millis): void => {
    queuedAt = Math.min(queuedAt ?? at, at);
  };
  // One transaction per batch. The batch is applied whole first, with set-based statements; if a
  // payload fails, that is undone and the batch applied one savepoint per payload, so the failing
  // one is undone and quarantined alone. A crash re-applies the batch, which is harmless (idempotent).
  const effects: EffectsApplied[] = [];
  const templates = new Set<string>();
  const events: NewOutboundEvent[] = [];
  const result = await deps.store.transaction(async (tx) => {
    effects.length = 0; // what a rolled-back attempt saw never happened
    templates.clear();
    events.length = 0;
    queuedAt = null;
    const store: typeof tx = {
      ...tx,
      requeue: async (id, input, now) => {
        const moved = await tx.requeue(id, input, now);
        if (moved && input.until !== null) queued(input.until);
        return moved;
      },
      wakeHeld: async (contactId, now) => {
        const woken = await tx.wakeHeld(contactId, now);
        if (woken > 0) queued(now);
        return woken;
      },
    };
    let senders: Promise<Sender[]> | null = null;
    const knownSenders = () => (senders ??= tx.listSenders());
    const reads = await Promise.all(rows.map((row) => readPayload(row, deps.parse, knownSenders)));
    /** Applies one payload, keeping what it reported only if `run` (its savepoint) holds. */
    const apply = (applyStore: typeof tx, read: PayloadRead, run: (work: () => Promise<RowOutcome>) => Promise<RowOutcome>) => {
      const seen: EffectsApplied[] = [];
      const changed: string[] = [];
      const told: NewOutboundEvent[] = [];
      return {
        outcome: run(() =>
          processRow(read, {
            ...deps,
            store: applyStore,
            knownSenders,
            onEffects: (e) => seen.push(e),
            onTemplate: (id) => changed.push(id),
            emit: (e) => told.push(e),
          }),
        ),
        keep: () => {
          effects.push(...seen);
          events.push(...told);
          for (const id of changed) templates.add(id);
        },
      };
    };
    // What was queued, put back when the part that queued it is undone.
    const checkpoint = (): (() => void) => {
      const before = queuedAt;
      return () => {
        queuedAt = before;
      };
    };
    const outcomes =
      (await applyBatch(store, reads, apply, checkpoint, deps.clock.now())) ?? (await applyOneByOne(store, reads, apply, checkpoint));
    const result: InboxResult = { rows: rows.length, items: 0, quarantined: 0 };
    const done: number[] = [];
    for (const [i, outcome] of outcomes.entries()) {
      const row = reads[i]!.row;
      result.items += outcome.items;
      if (outcome.quarantine === null) done.push(row.id);
      else {
        await store.quarantineInbox(row.id, outcome.quarantine, deps.clock.now());
        result.quarantined++;
      }
    }
    if (done.length > 0) await store.markInboxProcessed(done, deps.clock.now());
    if (events.length > 0) await store.recordOutboundEvents(events, deps.clock.now());
    return result;
  });
  if (queuedAt !== null) deps.signal?.notifyQueued(queuedAt);
  if (deps.logger !== undefined) logEffects(deps.logger, effects);
  for (const id of templates) deps.onTemplateChanged?.(id);
  return result;
}

/**
 * Processes batches until one comes back short: everything stored when that batch was read is then
 * applied (what is stored later is for the next drain). Adds each batch's counts to `totals` as it goes.
 */
export async function drainInbox(deps: InboxDeps, totals: InboxResult = { rows: 0, items: 0, quarantined: 0 }): Promise<InboxResult> {
  for (;;) {
    const r = await processInbox(deps);
    totals.rows += r.rows;
    totals.items += r.items;
    totals.quarantined += r.quarantined;
    if (r.rows < INBOX_BATCH_ROWS) return totals;
  }
}

async function readPayload(row: InboxRow, parse: ParseWebhook, knownSenders: () => Promise<Sender[]>): Promise<PayloadRead> {
  try {
    return await parsePayload(row, parse, knownSenders);
  } catch (error) {
    if (isTransient(error)) throw error;
    return { row, quarantine: `processing failed: ${error instanceof Error ? error.message : String(error)}` };
  }
}

async function parsePayload(row: InboxRow, parse: ParseWebhook, knownSenders: () => Promise<Sender[]>): Promise<PayloadRead> {
  let body: unknown;
  try {
    body = JSON.parse(Buffer.from(row.raw).toString('utf8'));
  } catch (error) {
    return { row, quarantine: `body is not JSON: ${error instanceof Error ? error.message : String(error)}` };
  }
  const parsed = parse(body);
  const unknown = unknownNumberIn(parsed.items, await knownSenders());
  if (unknown !== null) return { row, quarantine: unknown };
  if (parsed.problems.length === 0) return { row, items: parsed.items, problems: null };
  const listed = parsed.problems
    .slice(0, 5)
    .map((p) => `${p.path}: ${p.message}`)
    .join('; ');
  const more = parsed.problems.length > 5 ? ` (+${parsed.problems.length - 5} more)` : '';
  const applied = parsed.items.length > 0 ? `applied ${parsed.items.length} good item(s); ` : '';
  return { row, items: parsed.items, problems: `${applied}malformed: ${listed}${more}` };
}
