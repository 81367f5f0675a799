import type { Category } from './category.js';
import type { MessagingLimitUse } from './messaging-limit.js';
import type { SpreadSlot } from './send-spread.js';
import type { SendWindow } from './send-window.js';
import type { Millis } from './time.js';

export type SendPath = 'cloud' | 'marketing_messages';

export type DeferReason =
  | 'marketing_cool_off' // per-user cap (131049): wait for it to lift
  | 'frequency_cap' // our own K-per-window marketing cap
  | 'template_paused' // paused by Meta for a known time
  | 'sender_throttled' // sender number backing off (130429 and friends)
  | 'sender_stopped' // account or number problem: looked at again (blockedRecheckMs) while an operator acts
  | 'messaging_limit' // the number reached its portfolio limit of new people per 24 h
  | 'pair_rate' // this number messaged this person a moment ago
  | 'outside_send_window' // the recipient's local time is outside the campaign's window or inside quiet hours
  | 'spread_in_window'; // inside the window, but this row's turn in the campaign's spread has not come

export type HoldReason = 'experiment_group'; // 130472: only inside an open window

export type SkipReason =
  | 'no_consent'
  | 'consent_revoked'
  | 'marketing_stopped'
  | 'unreachable'
  | 'us_marketing_pause'
  | 'window_closed' // free-form outside the customer-service window
  | 'template_unavailable' // disabled, rejected, deleted, or paused with no known end
  | 'needs_phone_number' // authentication templates cannot go to a business-scoped user id (131062)
  | 'missing_parameter' // a template value this recipient has none for (Meta would answer 132000)
  | 'invalid_parameter' // a value Meta refuses (too long, a line break: 132018, 131009)
  | 'capped_exhausted' // this message used its cap attempts; the contact stays eligible later
  | 'expired'; // it could not go before its "not after" time: it ends instead of going late

export type SendReason =
  | 'eligible'
  | 'inside_window' // allowed because the contact's window is open (does not count toward Meta's cap)
  | 'probe_after_quiet' // re-probing an unreachable or experiment contact after the quiet period
  | 'after_cap_marketing_api'; // first marketing attempt after a cap goes through /marketing_messages

export type DecisionReason = SendReason | DeferReason | HoldReason | SkipReason;

export type Decision =
  | { kind: 'send'; path: SendPath; reason: SendReason; explanation: string }
  | { kind: 'defer'; until: Millis; reason: DeferReason; explanation: string }
  | { kind: 'hold'; reason: HoldReason; explanation: string }
  | { kind: 'skip'; reason: SkipReason; explanation: string; until: Millis | null };

export type TemplateStatus = 'approved' | 'pending' | 'paused' | 'disabled' | 'rejected' | 'deleted' | 'unknown';

/** What we want to send, with the facts about it that are not contact state. */
export interface SendIntent {
  category: Category;
  /** Free-form messages need an open window; templates do not. */
  kind: 'template' | 'freeform';
  /** ISO region of the recipient's number (from a phone library at the edge), or null if unknown. */
  recipientRegion: string | null;
  /** How the message is addressed: a phone number (`to`), or only a business-scoped user id (`recipient`). Absent: by phone. */
  addressedBy?: 'phone' | 'user_id';
  template: { status: TemplateStatus; pausedUntil: Millis | null } | null;
  sender: { state: 'ok' } | { state: 'throttled'; until: Millis } | { state: 'stopped'; why: string };
  /** Cap failures (131049) this same message already had; bounded by policy. */
  capAttempts: number;
  /** The marketing-messages path refused this message; use /messages. */
  marketingApiRefused: boolean;
  /** The sender's portfolio messaging limit and its use; absent or null when unlimited or unknown. */
  messagingLimit?: MessagingLimitUse | null;
  /** When this number last sent this person a message (any category); absent or null if not lately. */
  lastSentToContactAt?: Millis | null;
  /** Why this recipient's template values cannot be sent (found when the values were frozen); absent when they can. */
  parameterProblem?: { reason: 'missing_parameter' | 'invalid_parameter'; detail: string } | null;
  /**
   * The recipient's zone and when this message may go: inside `window` (the campaign's, or outside
   * the policy's quiet hours; null: any hour), and not after `notAfter` (null: no limit). Absent:
   * any time, in no zone.
   */
  timing?: MessageTiming | null;
}

export interface MessageTiming {
  /** IANA zone, e.g. `Europe/London`. */
  zone: string;
  window: SendWindow | null;
  /** Where the window comes from, for the explanation. */
  windowSource: 'campaign' | 'quiet_hours' | null;
  notAfter: Millis | null;
  /** The campaign spreads its sends over the window (its opening, or the row's due time, onwards); null: at once. */
  spread: SpreadSlot | null;
}
