import type { RecipientShare } from '../../core/sender-pool.js';
import type { Category } from '../../core/category.js';
import type { SegmentDefinition } from '../../core/segment.js';
import type { PlainSlot } from '../../core/template-freeze.js';
import type { Millis } from '../../core/time.js';
import type { JsonObject } from '../json.js';
import type { SegmentPage } from './contacts.js';

/** A campaign's outbox rows, one per contact its segment selects; the rest as in `OutboxInput`. */
export interface SegmentOutboxPlan {
  campaignId: number;
  senderId: number;
  category: Category;
  intent: JsonObject;
  /**
   * Each row's own intent as JSON text, from its contact (template values frozen per recipient);
   * absent: `intent` for every row. Text, not an object: a start writes a million of them. Called
   * once per new row, inside the page's transaction; it must not do I/O.
   */
  intentTextFor?: (contact: { name: string | null; attributes: JsonObject }) => string;
  /**
   * With `intentTextFor`: the template intent the database may write itself for contacts whose
   * attributes hold plain values (see `plainSlots`), the same intent `intentTextFor` would give;
   * every other contact still goes through `intentTextFor`.
   */
  plainIntent?: { phoneNumberId: string; name: string; language: string; slots: readonly PlainSlot[] };
  nextAttemptAt: Millis;
  segment: SegmentDefinition;
  /** Of the segment's recipients, only this number's share of a pool (absent: all of them). */
  share?: RecipientShare;
}

export interface SegmentOutboxPage extends SegmentPage {
  /** New outbox rows: matches that already had one in this campaign are left as they are. */
  inserted: number;
}

/** A campaign's rows as a whole: planned from its segment, still open or not, ended together. */
export interface CampaignOutboxStore {
  /**
   * Plans a page of a campaign inside the database, in one transaction: of the next `limit` contacts
   * after `afterId`, each one `plan.segment` selects at `now` (as `matchesSegment` would, from its
   * stored state) gets a queued outbox row, idempotently as with `insertOutbox`. No contact is read
   * into the process, so memory does not grow with the audience.
   */
  insertSegmentOutbox(plan: SegmentOutboxPlan, afterId: number, limit: number, now: Millis): Promise<SegmentOutboxPage>;
  /** 1 when some row is still to send, being sent, or accepted within `settleMs` (a failure may yet requeue it); else 0. */
  campaignOpenRows(campaignId: number, now: Millis, settleMs: number): Promise<number>;
  /**
   * Puts the campaign's rows held for one of `codes` (their last error) back in line at `now`, for
   * `decide` to look at again; returns how many.
   */
  releaseHeldRows(campaignId: number, codes: readonly number[], now: Millis): Promise<number>;
  /** Ends a campaign's queued and held rows with `outcome` (`cancelled`, or `skipped` when it ended); returns how many. */
  cancelCampaignRows(campaignId: number, now: Millis, outcome?: 'cancelled' | 'skipped'): Promise<number>;
}
