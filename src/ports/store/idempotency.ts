import type { Millis } from '../../core/time.js';

/** One request sent with an Idempotency-Key: whose key it is, and what the request was. */
export interface IdempotencyClaim {
  /** Who sent it (`admin`, `token:12`): keys of different tokens never meet. */
  principal: string;
  key: string;
  /** A hash of the method, path and canonical body: the same key with another request is refused. */
  fingerprint: string;
}

/** The first answer, replayed to every retry: status, the headers worth repeating, the body as sent. */
export interface StoredResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export interface ClaimTimes {
  /** How long the key and its answer are kept, from the first request. */
  keepMs: Millis;
  /** A claim still without an answer this long after it was made is abandoned (its process died). */
  staleAfterMs: Millis;
}

export type ClaimOutcome =
  /** This request runs; `claimedAt` identifies the claim when its answer is recorded. */
  | { kind: 'claimed'; claimedAt: Millis }
  /** A request with this key is still running. */
  | { kind: 'in_progress' }
  /** The key was used for another request (another method, path or body). */
  | { kind: 'mismatch' }
  | { kind: 'done'; response: StoredResponse };

/** Idempotency keys of the REST API, shared by every process through the database. */
export interface IdempotencyStore {
  /**
   * Claims the key, or says why not. An expired key, or a claim that went stale without an answer,
   * is taken over by this request. Safe when several processes claim the same key at once: one wins.
   */
  claimIdempotencyKey(claim: IdempotencyClaim, now: Millis, times: ClaimTimes): Promise<ClaimOutcome>;
  /** Records the answer of the claim made at `claimedAt`; false when that claim is no longer held. */
  completeIdempotencyKey(claim: IdempotencyClaim, claimedAt: Millis, response: StoredResponse): Promise<boolean>;
  /** Lets the key go without an answer (the request failed on our side), so a retry runs again. */
  releaseIdempotencyKey(claim: IdempotencyClaim, claimedAt: Millis): Promise<void>;
  /** Deletes keys kept past their time; returns how many. */
  sweepIdempotencyKeys(now: Millis): Promise<number>;
}
