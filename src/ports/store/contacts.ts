import type { Reachability, SegmentDefinition } from '../../core/segment.js';
import type { Millis } from '../../core/time.js';
import type { JsonObject, JsonValue } from '../json.js';
import type { StoredContactState } from './contact-state.js';

export interface ContactInput {
  /** At least one of waId, bsuid, phoneE164; a contact is matched by them in that order. */
  waId?: string | null;
  /** Business-scoped user id. */
  bsuid?: string | null;
  phoneE164?: string | null;
  name?: string | null;
  /** Merged key by key into existing attributes. */
  attributes?: JsonObject;
  /** Added to existing tags. */
  tags?: readonly string[];
}

export interface Contact {
  id: number;
  waId: string | null;
  bsuid: string | null;
  phoneE164: string | null;
  name: string | null;
  attributes: JsonObject;
  tags: string[];
  createdAt: Millis;
  updatedAt: Millis;
}

export type ContactKey = { waId: string } | { bsuid: string } | { phoneE164: string };

/** Identifiers to give a contact; absent or null ones are left as they are. */
export interface ContactKeys {
  waId?: string | null;
  bsuid?: string | null;
  phoneE164?: string | null;
}

/** What one input did: made a contact, changed a stored one's fields, or matched one and changed nothing. */
export type UpsertOutcome = 'created' | 'updated' | 'unchanged';

/** Ids in input order; `created` counts new contacts, `updated` the inputs that matched one (created + updated = inputs). */
export interface UpsertContactsResult {
  ids: number[];
  created: number;
  updated: number;
  /** Per input, in input order; an input merged into a contact an earlier input of the call made is `updated` or `unchanged`. */
  outcomes: UpsertOutcome[];
}

/** A change to one contact's fields (PATCH): what is absent stays as it is. */
export interface ContactChange {
  /** A name, or null to clear it. */
  name?: string | null;
  /** Merged key by key; a null value removes that key. */
  attributes?: Readonly<Record<string, JsonValue>>;
  tagsAdd?: readonly string[];
  /** Removed after `tagsAdd` is added, so a tag in both ends absent. */
  tagsRemove?: readonly string[];
}

/** One page of contacts holding a tag; `next` is the cursor to go on from, null when no contact is left to look at. */
export interface TaggedContactsPage {
  contacts: Contact[];
  next: number | null;
}

export interface ContactWithState {
  contact: Contact;
  state: StoredContactState | null;
}

/** One page of contacts, by id, run through a segment. */
export interface SegmentPage {
  /** The page's last contact id, to pass as the next `afterId`; null when no contact came after `afterId`. */
  lastContactId: number | null;
  /** Contacts in the page. */
  scanned: number;
  /** Of them, the contacts the segment selects. */
  matched: number;
}

export interface SegmentCountsPage extends SegmentPage {
  /** Among the matched contacts, how many are in each state now (a contact may be in several). */
  matchedNow: Record<Reachability, number>;
}

/** One page of the contacts a segment selects, with the fields template values are read from. */
export interface SegmentContactsPage extends SegmentPage {
  contacts: Array<{ id: number; name: string | null; attributes: Record<string, unknown> }>;
}

/** The people Pacer writes to, found by any of their keys. */
export interface ContactStore {
  upsertContacts(contacts: readonly ContactInput[], now: Millis): Promise<UpsertContactsResult>;
  getContact(id: number): Promise<Contact | null>;
  findContact(key: ContactKey): Promise<Contact | null>;
  /**
   * Gives these identifiers to contact `id`, taking each off any other contact that holds it, unless
   * that would leave the other with none (then it stays there): a phone number or business-scoped id
   * belongs to one person, and Meta says who.
   */
  setContactKeys(id: number, keys: ContactKeys, now: Millis): Promise<void>;
  /** Pages through contacts by id, for planners. */
  listContacts(afterId: number, limit: number): Promise<Contact[]>;
  /**
   * Up to `limit` contacts after `afterId` holding `tag`, by id. One call looks at no more than
   * `scan` contacts, so a rare tag costs bounded work per page: a page may hold fewer than `limit`
   * while `next` is not null.
   */
  listContactsWithTag(tag: string, afterId: number, limit: number, scan: number): Promise<TaggedContactsPage>;
  /** Applies `change` to contact `id` in one write; null when there is no such contact. `changed` is false when nothing differed. */
  updateContact(id: number, change: ContactChange, now: Millis): Promise<{ contact: Contact; changed: boolean } | null>;
  /** The contacts with these ids that exist, each with its stored state, in id order (for a batch of sends). */
  getContactsWithState(ids: readonly number[]): Promise<ContactWithState[]>;
  /**
   * Runs the next `limit` contacts after `afterId` through `matchesSegment` at `now` inside the
   * database and counts what it selects, and in which reachability states (segment previews).
   */
  countSegment(segment: SegmentDefinition, now: Millis, afterId: number, limit: number): Promise<SegmentCountsPage>;
  /** The next `limit` contacts after `afterId` that the segment selects at `now`, in id order (personalised campaigns). */
  segmentContacts(segment: SegmentDefinition, now: Millis, afterId: number, limit: number): Promise<SegmentContactsPage>;
}
