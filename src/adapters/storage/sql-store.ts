import type { Store } from '../../ports/store.js';
import { migrate } from './migrate.js';
import { MIGRATIONS } from './migrations.js';
import type { SqlExecutor, SqlRunner } from './sql-executor.js';
import { campaignCounters, contactTimeline } from './sql/reports.js';
import { campaignWindow, latestMessageEventId } from './sql/campaign-window.js';
import { diagnosisAudience } from './sql/diagnosis-audience.js';
import { diagnosisSends, sendAttempts } from './sql/diagnosis-sends.js';
import { diagnosisCampaigns, diagnosisTemplates } from './sql/diagnosis-usage.js';
import { createApiToken, findApiToken, listApiTokens, outboxTotals, revokeApiToken } from './sql/api-tokens.js';
import { getSenderById, getTemplateById, listCampaigns, listSenders, listTemplates } from './sql/catalog-lists.js';
import { requeue, settle } from './sql/outbox-requeue.js';
import { listQuarantinedInbox, releaseQuarantine } from './sql/inbox-quarantine.js';
import { cancelCampaignRows } from './sql/campaign-cancel.js';
import { campaignOpenRows } from './sql/campaign-open-rows.js';
import { createCampaign, getCampaign, setCampaignStatus } from './sql/campaigns.js';
import { getSender, getTemplate, setSenderState, upsertSenders, upsertTemplates } from './sql/catalog.js';
import { consentHistory, getConsent, setConsent, setConsents } from './sql/consent.js';
import { loadContactState, saveContactState } from './sql/contact-state.js';
import { findContact, getContact, getContactsWithState, listContacts } from './sql/contacts.js';
import { upsertContacts } from './sql/contacts-upsert.js';
import { conversationOpenedAt, conversationWindow, recordConversation } from './sql/sender-conversations.js';
import { appendDecisions } from './sql/decisions.js';
import { appendInbox, appendInboxBatch, listUnprocessedInbox, markInboxProcessed, quarantineInbox } from './sql/inbox.js';
import { appendMessageEvent } from './sql/message-events.js';
import { outboxBreakdown, skipReasons, retryRecovery } from './sql/campaign-breakdown.js';
import { deliveryFunnel } from './sql/delivery-funnel.js';
import { failuresByCode } from './sql/failure-series.js';
import { contactInbound, recordInbound } from './sql/inbound-messages.js';
import { listOutboxRows } from './sql/outbox-list.js';
import { recordSenderChange, senderChanges } from './sql/sender-changes.js';
import { templateOutcomes } from './sql/template-outcomes.js';
import { waitingReasons } from './sql/waiting-reasons.js';
import { claimDue, nextWorkAt } from './sql/outbox-claim.js';
import { returnPace, takePace } from './sql/send-pace.js';
import { getOutbox, insertOutbox } from './sql/outbox-insert.js';
import { insertSegmentOutbox } from './sql/outbox-segment.js';
import { countSegment } from './sql/segment-counts.js';
import { complete, fail, recordAccepted, recordDelivery, recordIntent, reschedule, sweepExpiredLeases, wakeHeld } from './sql/outbox-transitions.js';

type Operations = Omit<Store, 'backend' | 'migrate' | 'close' | 'transaction'>;
type Bound<K extends keyof Operations> = (db: SqlExecutor, ...args: Parameters<Operations[K]>) => ReturnType<Operations[K]>;

/** Each store method is one SQL module; both backends share them and differ only in the executor. */
const OPERATIONS: { [K in keyof Operations]: Bound<K> } = {
  upsertContacts, getContact, findContact, listContacts, getContactsWithState, countSegment,
  setConsent, setConsents, getConsent, consentHistory,
  loadContactState, saveContactState,
  upsertTemplates, getTemplate, upsertSenders, getSender, setSenderState,
  createCampaign, getCampaign, setCampaignStatus,
  takePace, returnPace,
  insertOutbox, insertSegmentOutbox, getOutbox, claimDue, recordIntent, recordAccepted, reschedule, complete, fail, recordDelivery, wakeHeld,
  sweepExpiredLeases,
  appendMessageEvent,
  appendInbox, appendInboxBatch, listUnprocessedInbox, markInboxProcessed, quarantineInbox,
  appendDecisions, campaignCounters, contactTimeline,
  requeue, settle, nextWorkAt, listQuarantinedInbox, releaseQuarantine, cancelCampaignRows, campaignOpenRows, listSenders, getSenderById, getTemplateById, listTemplates, listCampaigns, campaignWindow, latestMessageEventId,
  createApiToken, findApiToken, listApiTokens, revokeApiToken, outboxTotals,
  conversationWindow, conversationOpenedAt, recordConversation,
  recordSenderChange, senderChanges, recordInbound, contactInbound,
  deliveryFunnel, failuresByCode, outboxBreakdown, skipReasons, waitingReasons, retryRecovery, templateOutcomes, listOutboxRows,
  diagnosisSends, diagnosisTemplates, diagnosisCampaigns, diagnosisAudience, sendAttempts,
};

/** Builds the Store over an executor; every driver error leaves as a StoreError naming the operation. */
export function createSqlStore(db: SqlExecutor, clock: () => number = Date.now): Store {
  return bindStore(db, {
    migrate: () => migrate(db, MIGRATIONS, clock()),
    close: () => db.close(),
    transaction: <T>(work: (tx: Store) => Promise<T>) => db.transaction('transaction', (runner) => work(bindStore(flat(db, runner), null))),
  });
}

type Lifecycle = Pick<Store, 'migrate' | 'close' | 'transaction'>;

function bindStore(db: SqlExecutor, lifecycle: Lifecycle | null): Store {
  const guard = async <T>(operation: string, run: () => Promise<T>): Promise<T> => {
    try {
      return await run();
    } catch (error) {
      throw db.toStoreError(error, operation);
    }
  };
  const inside = (name: string) => () => Promise.reject(new Error(`${name} is not available inside a transaction`));
  const store: Record<string, unknown> = {
    backend: db.caps.dialect,
    migrate: lifecycle ? () => guard('migrate', lifecycle.migrate) : inside('migrate'),
    close: lifecycle ? () => guard('close', lifecycle.close) : inside('close'),
    // Nested transactions join the outer one.
    transaction: lifecycle ? lifecycle.transaction : <T>(work: (tx: Store) => Promise<T>) => work(store as unknown as Store),
  };
  for (const [name, operation] of Object.entries(OPERATIONS)) {
    const call = operation as (db: SqlExecutor, ...args: unknown[]) => Promise<unknown>;
    store[name] = (...args: unknown[]) => guard(name, () => call(db, ...args));
  }
  return store as unknown as Store;
}

/** An executor over an open transaction: operations that open their own transaction join it. */
function flat(db: SqlExecutor, runner: SqlRunner): SqlExecutor {
  return {
    caps: runner.caps,
    query: (sql, params) => runner.query(sql, params),
    execute: (sql, params) => runner.execute(sql, params),
    transaction: (_operation, work) => work(runner),
    lockForMigration: (tx) => db.lockForMigration(tx),
    script: (tx, sql) => db.script(tx, sql),
    toStoreError: (error, operation) => db.toStoreError(error, operation),
    close: () => Promise.reject(new Error('close is not available inside a transaction')),
  };
}
