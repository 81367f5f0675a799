import type { Policy } from '../../../core/policy.js';
import type { Clock } from '../../../ports/clock.js';
import type { WorkQueued } from '../../../ports/work-signal.js';
import type {
  ApiTokenStore,
  CampaignOutboxStore,
  CampaignReportStore,
  CampaignStore,
  ConsentStore,
  ContactHistoryStore,
  ContactStateStore,
  ContactStore,
  ConversationStore,
  DeliveryReportStore,
  OutboundEventStore,
  OutboxStore,
  SenderHistoryStore,
  SenderStore,
  TemplateStore,
} from '../../../ports/store.js';

/** The store roles the dashboard's pages, actions and sign-in use. */
export type DashboardStore = ContactStore &
  OutboundEventStore &
  ConsentStore &
  ContactStateStore &
  ContactHistoryStore &
  CampaignStore &
  CampaignOutboxStore &
  CampaignReportStore &
  DeliveryReportStore &
  SenderStore &
  SenderHistoryStore &
  ConversationStore &
  TemplateStore &
  OutboxStore &
  Pick<ApiTokenStore, 'findApiToken'>;

export interface DashboardDeps {
  store: DashboardStore;
  clock: Clock;
  policy: Policy;
  /** PACER_ADMIN_TOKEN, accepted at sign-in like a stored API token; null accepts stored tokens only. */
  adminToken: string | null;
  /** The business number replies go from (WHATSAPP_PHONE_NUMBER_ID); null disables the reply box. */
  phoneNumberId: string | null;
  /** Told of each reply queued and campaign resumed, so this process's dispatcher sends at once. */
  signal: WorkQueued;
}
