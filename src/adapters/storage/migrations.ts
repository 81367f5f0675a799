import { initial } from './migrations/0001-initial.js';
import { eventOutbox } from './migrations/0002-event-outbox.js';
import { outboxByCampaign } from './migrations/0004-outbox-by-campaign.js';
import { campaignEnd } from './migrations/0005-campaign-end.js';
import { apiTokens } from './migrations/0003-api-tokens.js';
import { dashboardHistory } from './migrations/0006-dashboard-history.js';
import { senderConversations } from './migrations/0007-sender-conversations.js';
import { decisionsByTime } from './migrations/0008-decisions-by-time.js';
import { outboxCampaignCounters } from './migrations/0009-outbox-campaign-counters.js';
import { sendPace } from './migrations/0010-send-pace.js';
import { outboxLeanIndexes } from './migrations/0011-outbox-lean-indexes.js';
import { campaignFrequencyCap } from './migrations/0012-campaign-frequency-cap.js';
import { latestDecisionPerRow } from './migrations/0013-latest-decision-per-row.js';
import { webhookSignals } from './migrations/0014-webhook-signals.js';
import { contactKeysNotEmpty } from './migrations/0015-contact-keys-not-empty.js';
import { templateSync } from './migrations/0016-template-sync.js';
import { campaignParameters } from './migrations/0017-campaign-parameters.js';
import { senderAccounts } from './migrations/0018-sender-accounts.js';
import { campaignTiming } from './migrations/0019-campaign-timing.js';
import { tokenScopesIdempotency } from './migrations/0020-token-scopes-idempotency.js';
import { outboundEvents } from './migrations/0021-outbound-events.js';
import { outboxClientReference } from './migrations/0022-outbox-client-reference.js';
import { reserved23 } from './migrations/0023-reserved.js';
import { templateSendTtl } from './migrations/0024-template-send-ttl.js';
import { outboxNumberColumn } from './migrations/0025-outbox-number-column.js';
import type { Migration } from './migrations/migration.js';

export type { Migration } from './migrations/migration.js';

/** The one ordered list, shared by both backends. Append only; never edit a released migration. */
export const MIGRATIONS: readonly Migration[] = [
  initial,
  eventOutbox,
  apiTokens,
  outboxByCampaign,
  campaignEnd,
  dashboardHistory,
  senderConversations,
  decisionsByTime,
  outboxCampaignCounters,
  sendPace,
  outboxLeanIndexes,
  campaignFrequencyCap,
  latestDecisionPerRow,
  webhookSignals,
  contactKeysNotEmpty,
  templateSync,
  campaignParameters,
  senderAccounts,
  campaignTiming,
  tokenScopesIdempotency,
  outboundEvents,
  outboxClientReference,
  reserved23,
  templateSendTtl,
  outboxNumberColumn,
];
