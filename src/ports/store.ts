import type { Category } from '../core/category.js';
import type { ConsentStatus, DeliveryStatus } from '../core/contact-event.js';
import type { ContactState } from '../core/contact-state.js';
import type { TemplateStatus } from '../core/decision.js';
import type { FrequencyCap } from '../core/policy.js';
import type { Reachability, SegmentDefinition } from '../core/segment.js';
import type { Millis } from '../core/time.js';
import type { StoreReports } from './store-reports.js';
import type { ClaimOptions, DecisionAuditInput, InboxInput, InboxRow, MessageEventInput, OutboxInput, OutboxOutcome, OutboxRow, PaceGrant, PaceRequest, RescheduleInput, SweepResult } from './store-outbox.js';

export type * from './store-reports.js';
export type * from './store-outbox.js';

/** Everything the application keeps: one port, implemented by the SQLite and PostgreSQL adapters. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

/** Infrastructure faults, raised as exceptions; expected outcomes (conflicts, duplicates) are values. */
export type StoreErrorCode = 'unavailable' | 'read_only' | 'busy' | 'full' | 'constraint' | 'migration' | 'unknown';

export class StoreError extends Error {
  override readonly name = 'StoreError';
  constructor(
    readonly code: StoreErrorCode,
    /** The store operation that failed, e.g. `appendInbox`. */
    readonly operation: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(`${operation}: ${message}`, options);
  }
}

// ---- contacts and consent ----

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

/** Ids in input order; `created` counts new contacts, `updated` the inputs that matched one (created + updated = inputs). */
export interface UpsertContactsResult {
  ids: number[];
  created: number;
  updated: number;
}

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

export interface ContactWithState {
  contact: Contact;
  state: StoredContactState | null;
}

/** A campaign's outbox rows, one per contact its segment selects; the rest as in `OutboxInput`. */
export interface SegmentOutboxPlan {
  campaignId: number;
  senderId: number;
  category: Category;
  intent: JsonObject;
  nextAttemptAt: Millis;
  segment: SegmentDefinition;
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

export interface SegmentOutboxPage extends SegmentPage {
  /** New outbox rows: matches that already had one in this campaign are left as they are. */
  inserted: number;
}

export interface SegmentCountsPage extends SegmentPage {
  /** Among the matched contacts, how many are in each state now (a contact may be in several). */
  matchedNow: Record<Reachability, number>;
}

export interface StoredContactState {
  state: ContactState;
  /** Incremented by every save; pass it back to `saveContactState`. */
  version: number;
}

export type SaveStateResult = { ok: true; version: number } | { ok: false; reason: 'version_conflict'; currentVersion: number };

// ---- templates, senders, campaigns ----

export interface TemplateInput {
  name: string;
  language: string;
  category: Category;
  status: TemplateStatus;
  quality: string | null;
  pausedUntil: Millis | null;
}
export interface Template extends TemplateInput { id: number; updatedAt: Millis }

export type SenderState = 'ok' | 'throttled' | 'stopped';
export interface SenderInput {
  phoneNumberId: string;
  displayNumber: string;
  qualityRating: string | null;
  /** Messages per second the number may send. */
  throughputMps: number;
  messagingLimitTier: string | null;
  state: SenderState;
  stateReason: string | null;
  /** For `throttled`: when sending may resume. */
  stateUntil: Millis | null;
}
export interface Sender extends SenderInput { id: number; updatedAt: Millis }

export type CampaignStatus = 'draft' | 'scheduled' | 'running' | 'paused' | 'completed' | 'cancelled';
export interface CampaignInput {
  name: string;
  templateId: number;
  senderId: number;
  segment: JsonObject;
  scheduledAt: Millis | null;
  /** When the campaign ends whatever is left (held or not yet due rows); null runs until done. */
  endsAt?: Millis | null;
  /** This campaign's own frequency cap (`max` 0 turns it off); null or absent: the configured cap applies. */
  frequencyCap?: FrequencyCap | null;
  policyPreset: string;
  status: CampaignStatus;
}
export interface Campaign extends CampaignInput {
  id: number;
  pauseReason: string | null;
  createdAt: Millis;
  updatedAt: Millis;
}

// ---- outbox ----

// ---- REST API tokens, outbox totals ----

/** Only the SHA-256 (hex) of a token is stored; the token itself is shown once, when created. */
export interface ApiTokenInput {
  name: string;
  tokenHash: string;
}
export interface ApiToken extends ApiTokenInput {
  id: number;
  createdAt: Millis;
  revokedAt: Millis | null;
}


/** A sender number's conversations in the messaging limit's rolling window. */
export interface ConversationWindow {
  people: number;
  oldestAt: Millis | null;
}

export interface MigrateResult { applied: number[]; current: number }

/** The port: the operations below, plus the operator reports (dashboard, diagnosis) in `store-reports.ts`. */
export interface Store extends StoreReports {
  readonly backend: 'sqlite' | 'postgres';
  /** Applies pending migrations; safe when several processes start at once. */
  migrate(): Promise<MigrateResult>;
  close(): Promise<void>;
  /**
   * Runs `work` in one write transaction: all of it commits or none. Keep it short and free of
   * network calls — SQLite has one writer, so every other write in the process waits for it.
   */
  transaction<T>(work: (tx: Store) => Promise<T>): Promise<T>;

  upsertContacts(contacts: readonly ContactInput[], now: Millis): Promise<UpsertContactsResult>;
  getContact(id: number): Promise<Contact | null>;
  findContact(key: ContactKey): Promise<Contact | null>;
  /** Pages through contacts by id, for planners. */
  listContacts(afterId: number, limit: number): Promise<Contact[]>;
  /** The contacts with these ids that exist, each with its stored state, in id order (for a batch of sends). */
  getContactsWithState(ids: readonly number[]): Promise<ContactWithState[]>;
  /**
   * Runs the next `limit` contacts after `afterId` through `matchesSegment` at `now` inside the
   * database and counts what it selects, and in which reachability states (segment previews).
   */
  countSegment(segment: SegmentDefinition, now: Millis, afterId: number, limit: number): Promise<SegmentCountsPage>;

  /** Appends to the consent history and moves the current value unless a newer one is already there. */
  setConsent(contactId: number, consent: ConsentInput, now: Millis): Promise<ConsentRecord>;
  /** The same for many records at once (imports): as if set one after the other, in input order. */
  setConsents(entries: readonly ConsentEntry[], now: Millis): Promise<void>;
  getConsent(contactId: number): Promise<Partial<Record<Category, ConsentRecord>>>;
  consentHistory(contactId: number): Promise<ConsentRecord[]>;

  loadContactState(contactId: number): Promise<StoredContactState | null>;
  /** `expectedVersion` 0 creates the row; otherwise the save happens only if nobody saved since. */
  saveContactState(contactId: number, state: ContactState, expectedVersion: number, now: Millis): Promise<SaveStateResult>;

  upsertTemplates(templates: readonly TemplateInput[], now: Millis): Promise<number[]>;
  getTemplate(name: string, language: string): Promise<Template | null>;
  upsertSenders(senders: readonly SenderInput[], now: Millis): Promise<number[]>;
  getSender(phoneNumberId: string): Promise<Sender | null>;
  setSenderState(phoneNumberId: string, state: SenderState, reason: string | null, until: Millis | null, now: Millis): Promise<boolean>;

  createCampaign(campaign: CampaignInput, now: Millis): Promise<number>;
  getCampaign(id: number): Promise<Campaign | null>;
  setCampaignStatus(id: number, status: CampaignStatus, pauseReason: string | null, now: Millis): Promise<boolean>;

  /** Idempotent: a (campaign, contact) pair or an idempotency key already present is left as is. */
  insertOutbox(rows: readonly OutboxInput[], now: Millis): Promise<{ inserted: number }>;
  /**
   * Plans a page of a campaign inside the database, in one transaction: of the next `limit` contacts
   * after `afterId`, each one `plan.segment` selects at `now` (as `matchesSegment` would, from its
   * stored state) gets a queued outbox row, idempotently as with `insertOutbox`. No contact is read
   * into the process, so memory does not grow with the audience.
   */
  insertSegmentOutbox(plan: SegmentOutboxPlan, afterId: number, limit: number, now: Millis): Promise<SegmentOutboxPage>;
  getOutbox(id: number): Promise<OutboxRow | null>;
  /** Takes send tokens from a bucket shared by every process (see PaceRequest). */
  takePace(request: PaceRequest): Promise<PaceGrant>;
  /** Gives back tokens taken but not spent; the bucket never exceeds `burst`. */
  returnPace(key: string, count: number, burst: number): Promise<void>;
  /** Due queued rows of running campaigns (or one-offs), leased to `owner` until now + leaseMs. */
  claimDue(options: ClaimOptions): Promise<OutboxRow[]>;
  /** Before the HTTP call: counts the attempt. False when the lease was lost. */
  recordIntent(id: number, owner: string, now: Millis): Promise<boolean>;
  /** After Meta accepted the send. False when the lease was lost or a status webhook already settled the row. */
  recordAccepted(id: number, owner: string, wamid: string, now: Millis): Promise<boolean>;
  reschedule(id: number, owner: string, input: RescheduleInput, now: Millis): Promise<boolean>;
  /** Ends a row with a non-failure outcome (skipped, capped_exhausted, cancelled...). */
  complete(id: number, owner: string, outcome: OutboxOutcome, now: Millis): Promise<boolean>;
  fail(id: number, owner: string, errorCode: number | null, now: Millis): Promise<boolean>;
  /**
   * Applies a delivery status to the row that sent `wamid` (or to `outboxId`, echoed in our callback
   * data, when the send's answer was lost). Outcomes only move forward. Returns the row as updated,
   * or null when nothing moved.
   */
  recordDelivery(ref: { wamid: string; outboxId: number | null }, status: DeliveryStatus, errorCode: number | null, now: Millis): Promise<OutboxRow | null>;
  /** Rows held for this contact's window wake up now. */
  wakeHeld(contactId: number, now: Millis): Promise<number>;
  sweepExpiredLeases(now: Millis): Promise<SweepResult>;

  /** False when this (wamid, status) was already recorded. */
  appendMessageEvent(event: MessageEventInput, now: Millis): Promise<{ inserted: boolean }>;

  /** Durable before it returns; the webhook answers 200 only after this. */
  appendInbox(entry: InboxInput): Promise<number>;
  /** One transaction for many payloads (group commit). Ids in input order. */
  appendInboxBatch(entries: readonly InboxInput[]): Promise<number[]>;
  listUnprocessedInbox(afterId: number, limit: number): Promise<InboxRow[]>;
  markInboxProcessed(ids: readonly number[], now: Millis): Promise<void>;
  quarantineInbox(id: number, reason: string, now: Millis): Promise<void>;

  appendDecisions(entries: readonly DecisionAuditInput[]): Promise<void>;

  /** After an asynchronous failure: back in line (queued or held) unless a worker holds the row. */
  requeue(id: number, input: RescheduleInput, now: Millis): Promise<boolean>;
  /** Ends a row nobody holds a lease on, e.g. capped_exhausted learnt from a webhook. */
  settle(id: number, outcome: OutboxOutcome, errorCode: number | null, now: Millis): Promise<boolean>;
  /**
   * When a worker next has something to do: the earliest next attempt among rows `claimDue` could
   * take (paused campaigns' excluded), or the earliest lease to run out (`sweepExpiredLeases`); null
   * when there is neither.
   */
  nextWorkAt(): Promise<Millis | null>;
  /** Quarantined webhook payloads, oldest first. */
  listQuarantinedInbox(afterId: number, limit: number): Promise<InboxRow[]>;
  /** Sends quarantined payloads (these ids, or all with null) back to the processor; returns how many. */
  releaseQuarantine(ids: readonly number[] | null): Promise<number>;
  /** 1 when some row is still to send, being sent, or accepted within `settleMs` (a failure may yet requeue it); else 0. */
  campaignOpenRows(campaignId: number, now: Millis, settleMs: number): Promise<number>;
  /** Ends a campaign's queued and held rows with `outcome` (`cancelled`, or `skipped` when it ended); returns how many. */
  cancelCampaignRows(campaignId: number, now: Millis, outcome?: 'cancelled' | 'skipped'): Promise<number>;
  listSenders(): Promise<Sender[]>;
  getSenderById(id: number): Promise<Sender | null>;
  getTemplateById(id: number): Promise<Template | null>;
  listTemplates(): Promise<Template[]>;
  listCampaigns(filter: { status?: CampaignStatus }): Promise<Campaign[]>;
  createApiToken(token: ApiTokenInput, now: Millis): Promise<ApiToken>;
  /** By hash, revoked or not. */
  findApiToken(tokenHash: string): Promise<ApiToken | null>;
  listApiTokens(): Promise<ApiToken[]>;
  /** False when the token does not exist or is already revoked. */
  revokeApiToken(id: number, now: Millis): Promise<boolean>;

  /** People the number started conversations with after `since` (the messaging limit's window). */
  conversationWindow(senderId: number, since: Millis): Promise<ConversationWindow>;
  conversationOpenedAt(senderId: number, contactId: number): Promise<Millis | null>;
  /** Counts a business-initiated conversation; one still inside `windowMs` is not counted again. */
  recordConversation(senderId: number, contactId: number, at: Millis, windowMs: number): Promise<void>;
}
