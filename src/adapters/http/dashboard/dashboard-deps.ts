import type { Policy } from '../../../core/policy.js';
import type { Clock } from '../../../ports/clock.js';
import type { Store } from '../../../ports/store.js';

export interface DashboardDeps {
  store: Store;
  clock: Clock;
  policy: Policy;
  /** PACER_ADMIN_TOKEN, accepted at sign-in like a stored API token; null accepts stored tokens only. */
  adminToken: string | null;
  /** The business number replies go from (WHATSAPP_PHONE_NUMBER_ID); null disables the reply box. */
  phoneNumberId: string | null;
}
