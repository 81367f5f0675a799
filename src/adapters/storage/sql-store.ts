import type { Savepoints, Store, TxStore } from '../../ports/store.js';
import { migrate } from './migrate.js';
import { MIGRATIONS } from './migrations.js';
import type { SqlExecutor, SqlRunner, SqlSession } from './sql-executor.js';
import { createApiToken, findApiToken, listApiTokens, revokeApiToken } from './sql/api-tokens.js';
import { campaignCounters, outboxBreakdown, retryRecovery, skipReasons } from './sql/campaign-breakdown.js';
import { cancelCampaignRows, releaseHeldRows } from './sql/campaign-cancel.js';
import { campaignOpenRows } from './sql/campaign-open-rows.js';
import { campaignOutcomesAfter } from './sql/campaign-outcomes-after.js';
import { createCampaign, getCampaign, listCampaigns, setCampaignStatus, setDraftSchedule } from './sql/campaigns.js';
import { campaignRecipients } from './sql/campaign-recipients.js';
import { consentHistory, currentConsents, getConsent, setConsent, setConsents } from './sql/consent.js';
import { loadContactState, loadContactStates, saveContactState, saveContactStates } from './sql/contact-state.js';
import { contactTimeline } from './sql/contact-timeline.js';
import { findContact, getContact, getContactsWithState, listContacts } from './sql/contacts.js';
import { upsertContacts } from './sql/contacts-upsert.js';
import { listContactsWithTag } from './sql/contacts-tagged.js';
import { updateContact } from './sql/contact-update.js';
import { setContactKeys } from './sql/contact-keys.js';
import { appendDecisions } from './sql/decisions.js';
import { claimIdempotencyKey, completeIdempotencyKey, releaseIdempotencyKey, sweepIdempotencyKeys } from './sql/idempotency-keys.js';
import { deliveryFunnel } from './sql/delivery-funnel.js';
import { diagnosisAudience } from './sql/diagnosis-audience.js';
import { diagnosisSends, sendAttempts } from './sql/diagnosis-sends.js';
import { diagnosisCampaigns, diagnosisTemplates } from './sql/diagnosis-usage.js';
import { failuresByCode } from './sql/failure-series.js';
import { contactInbound, recordInbound } from './sql/inbound-messages.js';
import { appendInbox, appendInboxBatch, listUnprocessedInbox, markInboxProcessed, quarantineInbox } from './sql/inbox.js';
import { listQuarantinedInbox, releaseQuarantine } from './sql/inbox-quarantine.js';
import { appendMessageEvent, appendMessageEvents, latestMessageEventId } from './sql/message-events.js';
import { claimDue, nextWorkAt, sweepExpiredLeases } from './sql/outbox-claim.js';
import { findOutboxByKey, getOutbox, insertOutbox } from './sql/outbox-insert.js';
import { messageHistory } from './sql/message-history.js';
import { listOutboxRows } from './sql/outbox-list.js';
import { waitingReasons } from './sql/waiting-reasons.js';
import { insertSegmentOutbox } from './sql/outbox-segment.js';
import { recordDeliveries, recordDelivery, requeue, settle, wakeHeld } from './sql/outbox-settlement.js';
import { outboxTotals } from './sql/outbox-totals.js';
import { complete, fail, recordAccepted, recordIntent, reschedule } from './sql/outbox-transitions.js';
import { completeMany, recordAcceptedMany, recordIntents, rescheduleMany } from './sql/outbox-batch-transitions.js';
import { countSegment } from './sql/segment-counts.js';
import { segmentContacts } from './sql/segment-contacts.js';
import { returnPace, takePace } from './sql/send-pace.js';
import { recordSenderChange, senderChanges } from './sql/sender-changes.js';
import { diagnosisNumbers } from './sql/diagnosis-numbers.js';
import { conversationOpenedAt, conversationWindow, recordConversation } from './sql/sender-conversations.js';
import { getSender, getSenderById, listSenders, setSenderProfile, setSenderState, upsertSenders } from './sql/senders.js';
import { getTemplate, getTemplateById, listTemplates, upsertSyncedTemplates, upsertTemplates } from './sql/templates.js';
import { templateOutcomes } from './sql/template-outcomes.js';
import { claimSignal } from './sql/webhook-signals.js';
import { getOutboundEvent, recordOutboundEvents } from './sql/outbound-events.js';
import {
  createEventSubscription,
  deleteEventSubscription,
  getEventSubscription,
  listEventSubscriptions,
  setEventSubscriptionEnabled,
} from './sql/event-subscriptions.js';
import {
  eventDeliveryBacklog,
  eventDeliveryTotals,
  getEventDelivery,
  listDeliveryAttempts,
  listEventDeliveries,
  nextEventDeliveryAt,
} from './sql/event-deliveries.js';
import { claimEventDeliveries } from './sql/event-claim.js';
import { replayEventDeliveries } from './sql/event-replay.js';
import { pruneOutboundEvents } from './sql/event-prune.js';
import { settleEventDeliveries, settleEventDelivery } from './sql/event-settle.js';

type Bound<K extends keyof TxStore> = (db: SqlSession, ...args: Parameters<TxStore[K]>) => ReturnType<TxStore[K]>;

/** Each store method is one SQL module; both backends share them and differ only in the executor. Grouped by role. */
const OPERATIONS: { [K in keyof TxStore]: Bound<K> } = {
  upsertContacts,
  getContact,
  findContact,
  setContactKeys,
  listContacts,
  listContactsWithTag,
  updateContact,
  getContactsWithState,
  countSegment,
  segmentContacts,
  setConsent,
  setConsents,
  getConsent,
  currentConsents,
  consentHistory,
  loadContactState,
  saveContactState,
  loadContactStates,
  saveContactStates,
  contactTimeline,
  recordInbound,
  contactInbound,
  upsertTemplates,
  upsertSyncedTemplates,
  getTemplate,
  getTemplateById,
  listTemplates,
  upsertSenders,
  getSender,
  getSenderById,
  listSenders,
  setSenderState,
  setSenderProfile,
  recordSenderChange,
  senderChanges,
  createCampaign,
  getCampaign,
  listCampaigns,
  setCampaignStatus,
  setDraftSchedule,
  insertOutbox,
  getOutbox,
  findOutboxByKey,
  messageHistory,
  insertSegmentOutbox,
  campaignOpenRows,
  cancelCampaignRows,
  releaseHeldRows,
  claimDue,
  sweepExpiredLeases,
  nextWorkAt,
  recordIntent,
  recordAccepted,
  reschedule,
  complete,
  fail,
  recordIntents,
  recordAcceptedMany,
  rescheduleMany,
  completeMany,
  recordDelivery,
  recordDeliveries,
  requeue,
  settle,
  wakeHeld,
  takePace,
  returnPace,
  conversationWindow,
  diagnosisNumbers,
  conversationOpenedAt,
  recordConversation,
  appendInbox,
  appendInboxBatch,
  listUnprocessedInbox,
  markInboxProcessed,
  quarantineInbox,
  listQuarantinedInbox,
  releaseQuarantine,
  claimSignal,
  appendMessageEvent,
  appendMessageEvents,
  appendDecisions,
  latestMessageEventId,
  campaignOutcomesAfter,
  campaignCounters,
  outboxBreakdown,
  skipReasons,
  waitingReasons,
  retryRecovery,
  listOutboxRows,
  campaignRecipients,
  outboxTotals,
  deliveryFunnel,
  failuresByCode,
  templateOutcomes,
  diagnosisSends,
  diagnosisTemplates,
  diagnosisCampaigns,
  diagnosisAudience,
  sendAttempts,
  createApiToken,
  findApiToken,
  listApiTokens,
  revokeApiToken,
  recordOutboundEvents,
  createEventSubscription,
  getEventSubscription,
  listEventSubscriptions,
  setEventSubscriptionEnabled,
  deleteEventSubscription,
  listEventDeliveries,
  getEventDelivery,
  getOutboundEvent,
  claimEventDeliveries,
  settleEventDelivery,
  settleEventDeliveries,
  listDeliveryAttempts,
  replayEventDeliveries,
  eventDeliveryTotals,
  eventDeliveryBacklog,
  nextEventDeliveryAt,
  pruneOutboundEvents,
  claimIdempotencyKey,
  completeIdempotencyKey,
  releaseIdempotencyKey,
  sweepIdempotencyKeys,
};

type Guard = <T>(operation: string, run: () => Promise<T>) => Promise<T>;

/** Builds the Store over an executor; every driver error leaves as a StoreError naming the operation. */
export function createSqlStore(db: SqlExecutor, clock: () => number = Date.now): Store {
  const guard: Guard = async (operation, run) => {
    try {
      return await run();
    } catch (error) {
      throw db.toStoreError(error, operation);
    }
  };
  return {
    ...bindOperations(db, guard),
    backend: db.caps.dialect,
    migrate: () => guard('migrate', () => migrate(db, MIGRATIONS, clock())),
    close: () => guard('close', () => db.close()),
    // A change without a time (SQLite's data version moved, a listener back after a drop): look it up.
    watchQueued: (onQueued, filter) =>
      db.watchQueued((at) => {
        if (at !== null) return onQueued(at);
        nextWorkAt(db, filter).then(
          (found) => found !== null && onQueued(found),
          () => undefined, // the store away: the loop's own timer looks again
        );
      }),
    bulkWrites: (work) => db.bulkWrites(work),
    // The transaction's store has the data roles only: it cannot migrate, close or nest.
    transaction: <T>(work: (tx: TxStore & Savepoints) => Promise<T>) =>
      db.transaction('transaction', (runner) => work({ ...bindOperations(joined(runner), guard), ...savepoints(runner, guard) })),
  };
}

/** Nested savepoints over an open transaction; the same SQL on both backends. */
function savepoints(runner: SqlRunner, guard: Guard): Savepoints {
  let depth = 0;
  return {
    async savepoint<T>(work: () => Promise<T>): Promise<T> {
      const name = `pacer_part_${++depth}`; // from a counter, never from input
      try {
        await guard('savepoint', () => runner.execute(`SAVEPOINT ${name}`));
        let result: T;
        try {
          result = await work();
        } catch (error) {
          // Undo the part and keep the transaction usable (PostgreSQL refuses every statement until then).
          await guard('savepoint', () => runner.execute(`ROLLBACK TO SAVEPOINT ${name}`));
          await guard('savepoint', () => runner.execute(`RELEASE SAVEPOINT ${name}`));
          throw error;
        }
        await guard('savepoint', () => runner.execute(`RELEASE SAVEPOINT ${name}`));
        return result;
      } finally {
        depth--;
      }
    },
  };
}

function bindOperations(db: SqlSession, guard: Guard): TxStore {
  const store: Record<string, unknown> = {};
  for (const [name, operation] of Object.entries(OPERATIONS)) {
    const call = operation as (db: SqlSession, ...args: unknown[]) => Promise<unknown>;
    store[name] = (...args: unknown[]) => guard(name, () => call(db, ...args));
  }
  return store as unknown as TxStore;
}

/** A session over an open transaction: operations that open their own transaction join it. */
function joined(runner: SqlRunner): SqlSession {
  return {
    caps: runner.caps,
    query: (sql, params) => runner.query(sql, params),
    execute: (sql, params) => runner.execute(sql, params),
    notifyQueued: (at) => runner.notifyQueued(at),
    transaction: (_operation, work) => work(runner),
  };
}
