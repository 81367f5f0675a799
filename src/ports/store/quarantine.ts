import type { InboxRow } from './inbox.js';

/** The payloads the processor could not read, for operators to look at and replay after a fix. */
export interface QuarantineStore {
  /** Quarantined webhook payloads, oldest first. */
  listQuarantinedInbox(afterId: number, limit: number): Promise<InboxRow[]>;
  /** Sends quarantined payloads (these ids, or all with null) back to the processor; returns how many. */
  releaseQuarantine(ids: readonly number[] | null): Promise<number>;
}
