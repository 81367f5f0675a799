import type { ContactState } from '../../core/contact-state.js';
import type { Millis } from '../../core/time.js';

export interface StoredContactState {
  state: ContactState;
  /** Incremented by every save; pass it back to `saveContactState`. */
  version: number;
}

export type SaveStateResult = { ok: true; version: number } | { ok: false; reason: 'version_conflict'; currentVersion: number };

/** Each contact's state per category, saved with optimistic concurrency. */
export interface ContactStateStore {
  loadContactState(contactId: number): Promise<StoredContactState | null>;
  /** `expectedVersion` 0 creates the row; otherwise the save happens only if nobody saved since. */
  saveContactState(contactId: number, state: ContactState, expectedVersion: number, now: Millis): Promise<SaveStateResult>;
  /** Several contacts' states in one read; a contact without a stored state is absent. */
  loadContactStates(contactIds: readonly number[]): Promise<Map<number, StoredContactState>>;
  /**
   * Several saves in set-based statements, each landing only on its `expectedVersion` (0 creates
   * the row) and leaving `version`: the ids of the contacts whose save landed.
   */
  saveContactStates(saves: readonly ContactStateSave[], now: Millis): Promise<number[]>;
}

export interface ContactStateSave {
  contactId: number;
  state: ContactState;
  expectedVersion: number;
  /** The version the row carries after the save: one more per save it stands for. */
  version: number;
}
