import type { Policy } from '../../../core/policy.js';
import type { Clock } from '../../../ports/clock.js';
import type { TemplateApi } from '../../../ports/cloud-api.js';
import type { WorkQueued } from '../../../ports/work-signal.js';
import type {
  CampaignOutboxStore,
  CampaignReportStore,
  CampaignStore,
  ConsentStore,
  ContactHistoryStore,
  ContactStateStore,
  ContactStore,
  ConversationStore,
  DiagnosisStore,
  OutboundEventStore,
  EventDeliveryStore,
  EventSubscriptionStore,
  OutboxStore,
  QuarantineStore,
  SenderHistoryStore,
  SenderStore,
  Store,
  TemplateStore,
} from '../../../ports/store.js';

/** The store roles the REST API's routes use (consent changes run in a transaction). */
export type ApiStore = ContactStore &
  OutboundEventStore &
  ConsentStore &
  ContactStateStore &
  ContactHistoryStore &
  CampaignStore &
  CampaignOutboxStore &
  CampaignReportStore &
  SenderStore &
  SenderHistoryStore &
  ConversationStore &
  TemplateStore &
  OutboxStore &
  QuarantineStore &
  DiagnosisStore &
  EventSubscriptionStore &
  EventDeliveryStore &
  Pick<Store, 'transaction'>;

/** What the route handlers use; wired once by the API plugin. */
export interface ApiDeps {
  store: ApiStore;
  clock: Clock;
  policy: Policy;
  /** `PACER_MODE`: production refuses plain-http subscriber URLs except to loopback. */
  mode: 'production' | 'development';
  /** The business number one-off messages go from (WHATSAPP_PHONE_NUMBER_ID); null refuses POST /messages. */
  phoneNumberId: string | null;
  /** After a quarantine replay released payloads: lets the inbox processor run at once. */
  onReplay: () => void;
  /** Told of each message queued or campaign resumed, so this process's dispatcher sends it at once. */
  signal: WorkQueued;
  /** The business account templates are synced from; null refuses POST /templates/sync with 503. */
  templateAccount: { wabaId: string; api: TemplateApi } | null;
}
