import type { Category } from './category.js';
import type { SendPath } from './decision.js';
import type { Millis } from './time.js';

export type DeliveryStatus = 'sent' | 'delivered' | 'read' | 'played' | 'failed';
export type ConsentStatus = 'granted' | 'revoked' | 'unknown';

/**
 * Everything that can change what we may send to one contact. Each event has a stable `id`
 * (used to make the reducer idempotent) and its own time `at` (used to order facts, not arrival).
 */
export type ContactEvent =
  | {
      type: 'status';
      id: string;
      at: Millis;
      messageId: string;
      status: DeliveryStatus;
      /** The category of the message, when we know it (our outbox, or `pricing.category`). */
      category: Category | null;
      /** First error code on a failed status. */
      errorCode: number | null;
    }
  | { type: 'send_error'; id: string; at: Millis; messageId: string | null; category: Category; errorCode: number }
  | { type: 'send_accepted'; id: string; at: Millis; messageId: string; category: Category; path: SendPath }
  | {
      type: 'inbound';
      id: string;
      at: Millis;
      kind: 'text' | 'button' | 'interactive' | 'other';
      /** Text body, button text or interactive title. */
      text: string | null;
      /** Quick-reply payload or interactive reply id. */
      payload: string | null;
      /** Arrived through a Click-to-WhatsApp ad or Page CTA: a free-entry-point window opens. */
      freeEntry: boolean;
    }
  | { type: 'preference'; id: string; at: Millis; value: 'stop' | 'resume' }
  | { type: 'consent'; id: string; at: Millis; category: Category; status: ConsentStatus; source: string; evidence: string | null };

export type ContactEventType = ContactEvent['type'];
