import type { Policy } from '../../../core/policy.js';
import type { Clock } from '../../../ports/clock.js';
import type { Store } from '../../../ports/store.js';

/** What the route handlers use; wired once by the API plugin. */
export interface ApiDeps {
  store: Store;
  clock: Clock;
  policy: Policy;
  /** The business number one-off messages go from (WHATSAPP_PHONE_NUMBER_ID); null refuses POST /messages. */
  phoneNumberId: string | null;
  /** After a quarantine replay released payloads: lets the inbox processor run at once. */
  onReplay: () => void;
}
