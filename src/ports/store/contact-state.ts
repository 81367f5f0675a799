import type { ContactState } from '../../core/contact-state.js';
import type { Millis } from '../../core/time.js';

export interface StoredContactState {
  state: ContactState;
  /** Incremented by every save; pass it back to `saveContactState`. */
  version: number;
}

export type SaveStateResult = { ok: true; version: number } | { ok: false; reason: 'version_conflict'; currentVersion: number };

/** One save of many: `expectedVersion` as `saveContactState` takes it, `version` the one to store (one more per save it stands for). */
export interface ContactStateSave {
  contactId: number;
  state: ContactState;
  expectedVersion: number;
  version: number;
}

/** Each contact's state per category, saved with optimistic concurrency. */
export interface ContactStateStore {
  loadContactState(contactId: number): Promise<StoredContactState | null>;
  /** `expectedVersion` 0 creates the row; otherwise the save happens only if nobody saved since. */
  saveContactState(contactId: number, state: ContactState, expectedVersion: number, now: Millis): Promise<SaveStateResult>;
  /** Many states at once (absent: never saved). */
  loadContactStates(contactIds: readonly number[]): Promise<Map<number, StoredContactState>>;
  /** Many saves at once, each landing only on its expected version; returns the contacts whose save landed. */
  saveContactStates(saves: readonly ContactStateSave[], now: Millis): Promise<Set<number>>;
}
