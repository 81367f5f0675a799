import type { Millis } from '../../core/time.js';

export interface InboxInput {
  raw: Uint8Array;
  receivedAt: Millis;
  signatureOk: boolean;
}
export interface InboxRow extends InboxInput {
  id: number;
  processedAt: Millis | null;
  quarantineReason: string | null;
}

/** The webhook inbox (raw payloads, append-only) as the endpoint writes it and the processor reads it. */
export interface InboxStore {
  /** Durable before it returns; the webhook answers 200 only after this. */
  appendInbox(entry: InboxInput): Promise<number>;
  /** One transaction for many payloads (group commit). Ids in input order. */
  appendInboxBatch(entries: readonly InboxInput[]): Promise<number[]>;
  listUnprocessedInbox(afterId: number, limit: number): Promise<InboxRow[]>;
  markInboxProcessed(ids: readonly number[], now: Millis): Promise<void>;
  quarantineInbox(id: number, reason: string, now: Millis): Promise<void>;
}
