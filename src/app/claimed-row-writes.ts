import type { Millis } from '../core/time.js';
import type {
  CompleteMove,
  IntentMove,
  OutboxLeaseStore,
  OutboxOutcome,
  OutboxRow,
  OutboxStatus,
  RescheduleInput,
  RescheduleMove,
} from '../ports/store.js';

interface Held {
  status: OutboxStatus;
  owner: string | null;
  leaseExpiresAt: Millis | null;
}

/**
 * The lease writes a pass makes to the rows it claimed in the same transaction, gathered while it
 * decides and sent as one set-based statement per kind at the end (`flush`), instead of one round
 * trip per row. Each call answers at once what its own statement would have answered: the rows were
 * claimed by this transaction and stay locked by it until it ends (SQLite: its single writer), so
 * whether a transition holds follows from the row as claimed and the calls made since (a row moves
 * at most from intent to one release, so sending intents, then reschedules, then completions keeps
 * each row's order). A row this transaction did not claim goes to the store at once, as before.
 */
export class ClaimedRowWrites {
  private readonly rows = new Map<number, Held>();
  private readonly intents: IntentMove[] = [];
  private readonly reschedules: RescheduleMove[] = [];
  private readonly completes: CompleteMove[] = [];

  constructor(
    private readonly tx: OutboxLeaseStore,
    private readonly owner: string,
    claimed: readonly OutboxRow[],
  ) {
    for (const r of claimed) this.rows.set(r.id, { status: r.status, owner: r.leaseOwner, leaseExpiresAt: r.leaseExpiresAt });
  }

  /** The transaction's store with the row transitions gathered here. */
  over<S extends OutboxLeaseStore>(store: S): S {
    return {
      ...store,
      recordIntent: (id, owner, now) => this.recordIntent(id, owner, now),
      reschedule: (id, owner, input, now) => this.reschedule(id, owner, input, now),
      complete: (id, owner, outcome, now) => this.finish(id, owner, outcome, null, now),
      fail: (id, owner, errorCode, now) => this.finish(id, owner, 'failed', errorCode, now),
    };
  }

  /** Sends the gathered writes; a row that did not move as its call answered is a broken invariant. */
  async flush(): Promise<void> {
    const expected = this.intents.length + this.reschedules.length + this.completes.length;
    if (expected === 0) return;
    const moved = [
      ...(await this.tx.recordIntents(this.owner, this.intents.splice(0))),
      ...(await this.tx.rescheduleMany(this.owner, this.reschedules.splice(0))),
      ...(await this.tx.completeMany(this.owner, this.completes.splice(0))),
    ];
    // The transaction is undone and its rows' leases run out: they are claimed again, nothing is lost.
    if (moved.length !== expected) throw new Error(`claimed rows: ${moved.length} of ${expected} gathered transitions held`);
  }

  private recordIntent(id: number, owner: string, now: Millis): Promise<boolean> {
    const held = this.rows.get(id);
    if (held === undefined) return this.tx.recordIntent(id, owner, now);
    const ok = held.status === 'leased' && this.holds(held, owner) && held.leaseExpiresAt !== null && held.leaseExpiresAt > now;
    if (ok) {
      held.status = 'sending';
      this.intents.push({ id, now });
    }
    return Promise.resolve(ok);
  }

  private reschedule(id: number, owner: string, input: RescheduleInput, now: Millis): Promise<boolean> {
    const held = this.rows.get(id);
    if (held === undefined) return this.tx.reschedule(id, owner, input, now);
    const ok = (held.status === 'leased' || held.status === 'sending') && this.holds(held, owner);
    if (ok) {
      this.release(held, input.status);
      this.reschedules.push({ id, input, now });
    }
    return Promise.resolve(ok);
  }

  private finish(id: number, owner: string, outcome: OutboxOutcome, errorCode: number | null, now: Millis): Promise<boolean> {
    const held = this.rows.get(id);
    if (held === undefined)
      return outcome === 'failed' ? this.tx.fail(id, owner, errorCode, now) : this.tx.complete(id, owner, outcome, now);
    const ok = (held.status === 'leased' || held.status === 'sending' || held.status === 'unknown') && this.holds(held, owner);
    if (ok) {
      this.release(held, 'done');
      this.completes.push({ id, outcome, errorCode, now });
    }
    return Promise.resolve(ok);
  }

  private holds(held: Held, owner: string): boolean {
    return held.owner !== null && held.owner === owner && owner === this.owner;
  }

  /** Every transition names the lease owner: once released, the row answers no other this pass. */
  private release(held: Held, status: OutboxStatus): void {
    held.status = status;
    held.owner = null;
    held.leaseExpiresAt = null;
  }
}
