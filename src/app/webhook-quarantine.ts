import type { Millis } from '../core/time.js';
import type { QuarantineStore } from '../ports/store.js';
import { drainInbox, type InboxDeps } from './process-inbox.js';

/** A webhook payload the processor could not apply, without its body (it holds phone numbers). */
export interface QuarantinedPayload {
  id: number;
  receivedAt: Millis;
  bytes: number;
  /** Whether its signature was verified. */
  signed: boolean;
  reason: string | null;
}

/** Quarantined payloads with an id above `afterId`, oldest first: `pacer webhooks quarantine` and the API. */
export async function listQuarantine(
  store: Pick<QuarantineStore, 'listQuarantinedInbox'>,
  afterId: number,
  limit: number,
): Promise<QuarantinedPayload[]> {
  const rows = await store.listQuarantinedInbox(afterId, limit);
  return rows.map((r) => ({
    id: r.id,
    receivedAt: r.receivedAt,
    bytes: r.raw.byteLength,
    signed: r.signatureOk,
    reason: r.quarantineReason,
  }));
}

/**
 * Who applies the released payloads: a running server's inbox pump, woken here (its counts come
 * later, so the result's stay 0), or, where no pump runs (the CLI), the inbox processor right here
 * until nothing is left.
 */
export type ReplayProcessing = { kind: 'pump'; kick: () => void } | { kind: 'drain'; inbox: InboxDeps };

export interface ReplayResult {
  released: number;
  /** Inbox payloads processed, the items in them, and the payloads quarantined again. */
  processed: number;
  items: number;
  quarantined: number;
}

/** Sends quarantined payloads (these ids, or all with null) back to the processor after a fix. */
export async function replayQuarantine(
  store: Pick<QuarantineStore, 'releaseQuarantine'>,
  ids: readonly number[] | null,
  processing: ReplayProcessing,
): Promise<ReplayResult> {
  const result: ReplayResult = { released: await store.releaseQuarantine(ids), processed: 0, items: 0, quarantined: 0 };
  switch (processing.kind) {
    case 'pump':
      if (result.released > 0) processing.kick();
      return result;
    case 'drain': {
      const r = await drainInbox(processing.inbox);
      return { ...result, processed: r.rows, items: r.items, quarantined: r.quarantined };
    }
  }
}
