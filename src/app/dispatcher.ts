import type { Policy } from '../core/policy.js';
import type { Millis } from '../core/time.js';
import type { CloudApi, SendResult } from '../ports/cloud-api.js';
import type { Clock } from '../ports/clock.js';
import type { DecisionAuditInput, Sender, Store, Template } from '../ports/store.js';
import { NumberPacing } from './number-pacing.js';
import { parseOutboxIntent } from './outbox-intent.js';
import { finishOutboxRow, prepareOutboxRow, sendPrepared, type PreparedRow, type RowContext, type RowOutcome } from './process-outbox-row.js';

export interface DispatcherOptions {
  /** Lease owner name: unique per process. */
  owner: string;
  /** Sends per second for the sender number (Meta's default 80; up to 1,000 after an upgrade). */
  mps: number;
  leaseMs: number;
  /** Rows claimed per tick at most. */
  batchSize: number;
}

export type TickResult = { claimed: number } & Record<RowOutcome, number>;

const EMPTY: TickResult = { claimed: 0, sent: 0, deferred: 0, held: 0, skipped: 0, failed: 0, retry: 0, unknown: 0, lost_lease: 0 };

/**
 * Claims due outbox rows with a lease and processes each through `decide`, at no more than the
 * sender's throughput: each tick may use the send budget that accrued since the previous one.
 */
export class Dispatcher {
  private lastTickAt: Millis | null = null;
  private lastSweepAt: Millis | null = null;
  private readonly pacing: NumberPacing;

  constructor(
    private readonly deps: { store: Store; api: CloudApi; policy: Policy; clock: Clock; random: () => number },
    private readonly options: DispatcherOptions,
  ) {
    this.pacing = new NumberPacing(deps.policy.pairRateGapMs);
  }

  async tick(): Promise<TickResult> {
    const { store, clock } = this.deps;
    const now = clock.now();
    const elapsed = this.lastTickAt === null ? 1000 : Math.max(0, now - this.lastTickAt);
    this.lastTickAt = now;
    const budget = Math.min(this.options.batchSize, Math.max(1, Math.floor((this.options.mps * Math.min(elapsed, 1000)) / 1000)));
    if (this.lastSweepAt === null || now - this.lastSweepAt >= this.options.leaseMs) {
      // Expired leases (a crashed worker's, or a send whose answer never came): claimable again, or
      // unknown when the request may have reached Meta. Once per lease length is often enough.
      this.lastSweepAt = now;
      await store.sweepExpiredLeases(now);
    }
    const rows = await store.claimDue({ owner: this.options.owner, now, leaseMs: this.options.leaseMs, limit: budget });
    if (rows.length === 0) return { ...EMPTY };
    this.pacing.newTick(now);

    const audits: DecisionAuditInput[] = [];
    const templates = new Map<string, Promise<Template | null>>();
    const senders = new Map<string, Promise<Sender | null>>();
    const ctx: RowContext = {
      store,
      api: this.deps.api,
      policy: this.deps.policy,
      owner: this.options.owner,
      now: () => clock.now(),
      random: this.deps.random,
      template: (name, language) => memo(templates, `${name}\u0000${language}`, () => store.getTemplate(name, language)),
      sender: (id) => memo(senders, id, () => store.getSender(id)),
      audit: (entry) => audits.push(entry),
      pacing: this.pacing,
    };
    // Warm the per-tick caches outside the transaction: they read through the store, not the transaction.
    await Promise.all(rows.map((row) => {
      const intent = parseOutboxIntent(row.intent, row.id);
      return Promise.all([ctx.sender(intent.phoneNumberId), intent.template ? ctx.template(intent.template.name, intent.template.language) : null]);
    }));
    // Three steps, so storage work is batched into two short transactions and no transaction ever
    // spans a network call: decide and record intents; send; record the answers.
    const prepared = await store.transaction(async (tx) => {
      const inTx = { ...ctx, store: tx };
      const out: PreparedRow[] = [];
      for (const row of rows) out.push(await prepareOutboxRow(row, inTx));
      if (audits.length > 0) await tx.appendDecisions(audits);
      return out;
    });
    const sends = prepared.filter((p): p is Extract<PreparedRow, { kind: 'send' }> => p.kind === 'send');
    const answers = await Promise.all(sends.map((p) => sendPrepared(p, this.deps.api)));
    const sent = await store.transaction(async (tx) => {
      const inTx = { ...ctx, store: tx };
      const out: RowOutcome[] = [];
      for (const [i, p] of sends.entries()) out.push(await finishOutboxRow(p, answers[i] as SendResult, inTx));
      return out;
    });
    const result: TickResult = { ...EMPTY, claimed: rows.length };
    for (const p of prepared) if (p.kind === 'settled') result[p.outcome]++;
    for (const o of sent) result[o]++;
    return result;
  }
}

function memo<T>(cache: Map<string, Promise<T>>, key: string, load: () => Promise<T>): Promise<T> {
  let hit = cache.get(key);
  if (hit === undefined) {
    hit = load();
    cache.set(key, hit);
  }
  return hit;
}
