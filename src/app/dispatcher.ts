import type { Policy } from '../core/policy.js';
import type { Millis } from '../core/time.js';
import type { CloudApi } from '../ports/cloud-api.js';
import type { Clock } from '../ports/clock.js';
import type { DecisionAuditInput, Sender, Store, Template } from '../ports/store.js';
import { processOutboxRow, type RowContext, type RowOutcome } from './process-outbox-row.js';

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

  constructor(
    private readonly deps: { store: Store; api: CloudApi; policy: Policy; clock: Clock; random: () => number },
    private readonly options: DispatcherOptions,
  ) {}

  async tick(): Promise<TickResult> {
    const { store, clock } = this.deps;
    const now = clock.now();
    const elapsed = this.lastTickAt === null ? 1000 : Math.max(0, now - this.lastTickAt);
    this.lastTickAt = now;
    const budget = Math.min(this.options.batchSize, Math.max(1, Math.floor((this.options.mps * Math.min(elapsed, 1000)) / 1000)));
    const rows = await store.claimDue({ owner: this.options.owner, now, leaseMs: this.options.leaseMs, limit: budget });
    if (rows.length === 0) return { ...EMPTY };

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
    };
    const outcomes = await Promise.all(rows.map((row) => processOutboxRow(row, ctx)));
    if (audits.length > 0) await store.appendDecisions(audits);
    const result: TickResult = { ...EMPTY, claimed: rows.length };
    for (const o of outcomes) result[o]++;
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
