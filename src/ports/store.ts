import type { ApiTokenStore } from './store/api-tokens.js';
import type { CampaignOutboxStore } from './store/campaign-outbox.js';
import type { CampaignReportStore } from './store/campaign-reports.js';
import type { CampaignStore } from './store/campaigns.js';
import type { ConsentStore } from './store/consent.js';
import type { ContactHistoryStore } from './store/contact-history.js';
import type { ContactStateStore } from './store/contact-state.js';
import type { ContactStore } from './store/contacts.js';
import type { ConversationStore } from './store/conversations.js';
import type { DeliveryReportStore } from './store/delivery-reports.js';
import type { DiagnosisStore } from './store/diagnosis.js';
import type { EventDeliveryStore } from './store/event-deliveries.js';
import type { EventLogStore } from './store/event-log.js';
import type { EventSubscriptionStore } from './store/event-subscriptions.js';
import type { IdempotencyStore } from './store/idempotency.js';
import type { InboxStore } from './store/inbox.js';
import type { OutboundEventStore } from './store/outbound-events.js';
import type { OutboxClaimStore, WorkFilter } from './store/outbox-claims.js';
import type { OutboxLeaseStore } from './store/outbox-leases.js';
import type { OutboxSettlementStore } from './store/outbox-settlement.js';
import type { OutboxStore } from './store/outbox.js';
import type { PaceStore } from './store/pacing.js';
import type { QuarantineStore } from './store/quarantine.js';
import type { SenderHistoryStore } from './store/sender-history.js';
import type { SenderStore } from './store/senders.js';
import type { SignalStore } from './store/signals.js';
import type { TemplateStore } from './store/templates.js';
import type { Millis } from '../core/time.js';
import type { QueuedWatch } from './work-signal.js';

// Everything the application keeps, split by role (one file each in ./store/). A consumer names the
// roles it uses; only composition roots hold the whole `Store`. Re-exported here so `store.js`
// stays the one place to import store types from.
export type * from './json.js';
export { isDataError, StoreError, type StoreErrorCode } from './store-error.js';
export type * from './store/api-tokens.js';
export type * from './store/campaign-outbox.js';
export type * from './store/campaign-reports.js';
export type * from './store/campaigns.js';
export type * from './store/consent.js';
export type * from './store/contact-history.js';
export type * from './store/contact-state.js';
export type * from './store/contacts.js';
export type * from './store/conversations.js';
export type * from './store/delivery-reports.js';
export type * from './store/diagnosis.js';
export type * from './store/event-deliveries.js';
export type * from './store/event-log.js';
export type * from './store/event-subscriptions.js';
export type * from './store/idempotency.js';
export type * from './store/inbox.js';
export type * from './store/outbound-events.js';
export type * from './store/outbox-claims.js';
export type * from './store/outbox-leases.js';
export type * from './store/outbox-settlement.js';
export type * from './store/outbox.js';
export type * from './store/pacing.js';
export type * from './store/quarantine.js';
export type * from './store/sender-history.js';
export type * from './store/senders.js';
export type * from './store/signals.js';
export type * from './store/templates.js';

/** Every data role: what a transaction hands out (no lifecycle: a transaction cannot migrate, close or nest). */
export interface TxStore
  extends
    ContactStore,
    ConsentStore,
    ContactStateStore,
    ContactHistoryStore,
    TemplateStore,
    SenderStore,
    SenderHistoryStore,
    CampaignStore,
    OutboxStore,
    CampaignOutboxStore,
    OutboxClaimStore,
    OutboxLeaseStore,
    OutboxSettlementStore,
    PaceStore,
    ConversationStore,
    InboxStore,
    QuarantineStore,
    SignalStore,
    EventLogStore,
    OutboundEventStore,
    CampaignReportStore,
    DeliveryReportStore,
    DiagnosisStore,
    ApiTokenStore,
    EventSubscriptionStore,
    EventDeliveryStore,
    IdempotencyStore {}

/** Inside a transaction: parts that fail on their own, without ending the transaction. */
export interface Savepoints {
  /**
   * Runs `work` in a savepoint. If it throws, everything it wrote is undone, the transaction goes on
   * and the error is rethrown; if the database itself is gone, that error is thrown instead.
   */
  savepoint<T>(work: () => Promise<T>): Promise<T>;
}

export interface MigrateResult {
  applied: number[];
  current: number;
}

/** The port, implemented by the SQLite and PostgreSQL adapters: every data role plus the store's lifecycle. */
export interface Store extends TxStore {
  readonly backend: 'sqlite' | 'postgres';
  /** Applies pending migrations; safe when several processes start at once. */
  migrate(): Promise<MigrateResult>;
  close(): Promise<void>;
  /**
   * Hears of outbox work other processes commit and passes on when it falls due: PostgreSQL by
   * LISTEN/NOTIFY on a connection of its own (re-established if it drops), SQLite by reading its
   * data version about every second. Closed with the store, or by the watch's own `close`.
   */
  watchQueued(onQueued: (at: Millis) => void, filter?: WorkFilter): QueuedWatch;
  /**
   * Runs `work` in one write transaction: all of it commits or none. Keep it short and free of
   * network calls — SQLite has one writer, so every other write in the process waits for it.
   */
  transaction<T>(work: (tx: TxStore & Savepoints) => Promise<T>): Promise<T>;
  /**
   * Runs `work`, a long run of write transactions (a campaign start's pages), as the backend writes
   * bulk fastest: SQLite copies its WAL back once at the end rather than every few commits.
   * Every transaction inside still commits on its own, as durably as any other.
   */
  bulkWrites<T>(work: () => Promise<T>): Promise<T>;
}
