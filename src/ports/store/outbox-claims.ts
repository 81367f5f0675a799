import type { Millis } from '../../core/time.js';
import type { OutboxRow } from './outbox.js';

/** Which rows a worker may take: only those going from its own number, when it names one. */
export interface WorkFilter {
  /** The number this worker sends from; absent: rows of any number (tools and tests). */
  phoneNumberId?: string;
}

export interface ClaimOptions extends WorkFilter {
  owner: string;
  now: Millis;
  leaseMs: number;
  limit: number;
}

export interface SweepResult {
  /** Leased but never started: safe to claim again. */
  requeued: number;
  /** Intent recorded but no result: marked unknown until a status webhook reconciles them. */
  unknown: number;
}

/** How workers take due rows: leases, the sweep of expired ones, and when there is next work. */
export interface OutboxClaimStore {
  /**
   * Due queued rows of running campaigns (or one-offs), leased to `owner` until now + leaseMs; only
   * rows going from `phoneNumberId` when it is given.
   */
  claimDue(options: ClaimOptions): Promise<OutboxRow[]>;
  sweepExpiredLeases(now: Millis): Promise<SweepResult>;
  /**
   * When a worker next has something to do: the earliest next attempt among rows `claimDue` could
   * take (paused campaigns' excluded, and other numbers' rows when `filter` names one), or the
   * earliest lease to run out (`sweepExpiredLeases`); null when there is neither.
   */
  nextWorkAt(filter?: WorkFilter): Promise<Millis | null>;
}
