import type { Category } from '../../core/category.js';
import type { ConsentStatus } from '../../core/contact-event.js';
import type { Millis } from '../../core/time.js';

export interface ConsentInput {
  category: Category;
  status: ConsentStatus;
  source: string;
  evidence: string | null;
  /** When the consent was given or withdrawn; an older record never overrides a newer current value. */
  at: Millis;
}

export interface ConsentEntry {
  contactId: number;
  consent: ConsentInput;
}

export interface ConsentRecord extends ConsentInput {
  contactId: number;
}

/** Consent per contact and category: the history, and the current value it leads to. */
export interface ConsentStore {
  /** Appends to the consent history and moves the current value unless a newer one is already there. */
  setConsent(contactId: number, consent: ConsentInput, now: Millis): Promise<ConsentRecord>;
  /**
   * The same for many records at once (imports): as if set one after the other, in input order.
   * `newContacts`: contacts created in the same transaction, which have no current consent yet (their
   * rows can be written without looking for one).
   */
  setConsents(entries: readonly ConsentEntry[], now: Millis, newContacts?: ReadonlySet<number>): Promise<void>;
  getConsent(contactId: number): Promise<Partial<Record<Category, ConsentRecord>>>;
  /** The current statuses of many contacts at once (absent: nothing recorded). */
  currentConsents(contactIds: readonly number[]): Promise<Map<number, Partial<Record<Category, ConsentStatus>>>>;
  consentHistory(contactId: number): Promise<ConsentRecord[]>;
}
