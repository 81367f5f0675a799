import type { ContactState } from '../core/contact-state.js';
import type { Millis } from '../core/time.js';
import type {
  ContactStateStore,
  EventLogStore,
  MessageEventInput,
  OutboxSettlementStore,
  SaveStateResult,
  SettledOutboxRow,
  StoredContactState,
} from '../ports/store.js';
import type { WebhookItem } from '../ports/webhook-items.js';
import { outboxIdFromCallbackData } from './outbox-intent.js';
import { statusEvent } from './status-event.js';

export type InboxBatchStore = Pick<EventLogStore, 'appendMessageEvent' | 'appendMessageEvents'> &
  Pick<OutboxSettlementStore, 'recordDelivery' | 'recordDeliveries'> &
  ContactStateStore;

/** A payload of the batch that will be applied: its inbox row and the items parsed from it. */
export interface BatchPayload {
  inboxId: number;
  items: readonly WebhookItem[];
}

interface CachedState {
  /** The version stored when the batch read it (0: none stored). */
  base: number;
  version: number;
  state: ContactState | null;
}

/**
 * The reads and writes of a batch of payloads, set-based: the batch's status events inserted in one
 * statement, its statuses applied to their rows in one more, the contacts' states read in one and
 * written in one at the end (`flush`). Each per-item call of the use cases then gets what its own
 * statement would have answered, in the order the payloads are applied. For a batch applied as a
 * whole (one savepoint): a payload that fails undoes the batch, which is then applied one by one.
 */
export class InboxBatch {
  private readonly appended = new Map<string, boolean[]>();
  private readonly delivered = new Map<string, { outboxId: number | null; status: string; row: SettledOutboxRow | null }>();
  private readonly states = new Map<number, CachedState>();

  private constructor(private readonly tx: InboxBatchStore) {}

  static async prepare(tx: InboxBatchStore, payloads: readonly BatchPayload[], now: Millis): Promise<InboxBatch> {
    const batch = new InboxBatch(tx);
    const events: MessageEventInput[] = [];
    for (const p of payloads) {
      for (const item of p.items) {
        if (item.kind !== 'status') continue;
        const keyed = statusEvent(item);
        if (keyed === null) continue;
        const { status, errorCode } = keyed.event;
        events.push({
          wamid: item.messageId,
          status,
          at: item.at,
          errorCode,
          inboxId: p.inboxId,
          outboxId: outboxIdFromCallbackData(item.callbackData),
        });
      }
    }
    const inserted = await tx.appendMessageEvents(events, now);
    const fresh = events.filter((_, i) => inserted[i] === true);
    events.forEach((e, i) => {
      const key = appendKey(e);
      batch.appended.set(key, [...(batch.appended.get(key) ?? []), inserted[i] === true]);
    });
    // A message or row with several new statuses in the batch moves once per status, in turn: its
    // first is applied with the others now, the later ones one by one when their turn comes. Nothing
    // the batch does before a first status's turn touches its row (only a status of the same message
    // or row would, and none comes earlier).
    const wamids = new Set<string>();
    const rowIds = new Set<number>();
    const alone = fresh.filter((e) => {
      const first = !wamids.has(e.wamid) && (e.outboxId == null || !rowIds.has(e.outboxId));
      wamids.add(e.wamid);
      if (e.outboxId != null) rowIds.add(e.outboxId);
      return first;
    });
    const rows = await tx.recordDeliveries(
      alone.map((e) => ({ wamid: e.wamid, outboxId: e.outboxId ?? null, status: e.status, errorCode: e.errorCode })),
      now,
    );
    alone.forEach((e, i) => batch.delivered.set(e.wamid, { outboxId: e.outboxId ?? null, status: e.status, row: rows[i] ?? null }));
    const contacts = rows.flatMap((r) => (r === null ? [] : [r.contactId]));
    const stored = await tx.loadContactStates(contacts);
    for (const id of contacts) batch.remember(id, stored.get(id) ?? null);
    return batch;
  }

  /** `store` answering the batch's calls from what was prepared, the contacts' states from memory. */
  over<S extends InboxBatchStore>(store: S): S {
    return {
      ...store,
      appendMessageEvent: (event, now) => {
        const answers = this.appended.get(appendKey(event));
        const next = answers?.shift();
        return next === undefined ? store.appendMessageEvent(event, now) : Promise.resolve({ inserted: next });
      },
      recordDelivery: (ref, status, errorCode, now) => {
        const done = this.delivered.get(ref.wamid);
        if (done === undefined || done.outboxId !== ref.outboxId || done.status !== status) {
          return store.recordDelivery(ref, status, errorCode, now);
        }
        this.delivered.delete(ref.wamid);
        return Promise.resolve(done.row);
      },
      loadContactState: async (contactId) => {
        const cached = this.states.get(contactId) ?? this.remember(contactId, await store.loadContactState(contactId));
        return cached.state === null ? null : { state: cached.state, version: cached.version };
      },
      saveContactState: (contactId, state, expectedVersion, now) => this.save(store, contactId, state, expectedVersion, now),
    };
  }

  /** Writes the states the batch changed; a state another process saved meanwhile fails the batch. */
  async flush(now: Millis): Promise<void> {
    const saves = [...this.states]
      .filter(([, c]) => c.version !== c.base && c.state !== null)
      .map(([contactId, c]) => ({ contactId, state: c.state as ContactState, expectedVersion: c.base, version: c.version }));
    const landed = await this.tx.saveContactStates(saves, now);
    if (landed.size !== saves.length) throw new Error(`${saves.length - landed.size} contact state(s) changed under the batch`);
  }

  private remember(contactId: number, stored: StoredContactState | null): CachedState {
    const cached = { base: stored?.version ?? 0, version: stored?.version ?? 0, state: stored?.state ?? null };
    this.states.set(contactId, cached);
    return cached;
  }

  /** As the store would answer: the batch holds the contact's latest version. */
  private save(store: ContactStateStore, contactId: number, state: ContactState, expected: number, now: Millis): Promise<SaveStateResult> {
    const cached = this.states.get(contactId);
    if (cached === undefined) return store.saveContactState(contactId, state, expected, now);
    if (cached.version !== expected) return Promise.resolve({ ok: false, reason: 'version_conflict', currentVersion: cached.version });
    cached.state = state;
    cached.version = expected + 1;
    return Promise.resolve({ ok: true, version: cached.version });
  }
}

const appendKey = (e: MessageEventInput): string => `${e.wamid}\u0000${e.status}\u0000${e.inboxId ?? ''}`;
