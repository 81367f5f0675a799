import type { ErrorClass } from './error-class.js';

/** Which API family reports the code. */
export type ErrorApi = 'cloud' | 'marketing_messages' | 'on_premises' | 'graph';

/** Where the code shows up: in the HTTP answer to a send, in a failed status webhook, or both. */
export type ErrorSurface = 'send_response' | 'status_webhook' | 'both' | 'inbound_webhook';

/** When, if ever, sending the same message again can succeed. */
export type RetryRule =
  | { kind: 'never' } // the same request will fail the same way
  | { kind: 'cap_cool_off' } // the per-user marketing schedule from policy (>= 24 h, growing gaps)
  | { kind: 'when_window_opens' } // only once the contact writes in
  | { kind: 'backoff'; schedule: 'transient' | 'pair_rate' | 'sender_throttle' } // timed retry
  | { kind: 'after_operator_fix' } // a person must change something first (template, billing, token)
  | { kind: 'reroute_cloud' }; // resend at once through the Cloud API /messages path

export type ContactEffect = 'none' | 'marketing_cool_off' | 'marketing_hold_for_window' | 'marketing_stopped' | 'unreachable';
export type TemplateEffect = 'none' | 'pause' | 'disable' | 'review';
export type SenderEffect = 'none' | 'throttle' | 'stop';
/** `count_cap` feeds the campaign's 131049-share breaker; `pause` stops the campaign at once. */
export type CampaignEffect = 'none' | 'count_cap' | 'pause';

export interface ErrorEffects {
  contact: ContactEffect;
  template: TemplateEffect;
  sender: SenderEffect;
  campaign: CampaignEffect;
}

/** The operator page, in our own words. */
export interface ErrorPage {
  /** What Meta is actually telling you, in one or two sentences. */
  meaning: string;
  /** Why it happens. */
  cause: string;
  /** Whether and when sending again can help, and why. */
  retry: string;
  /** What to do instead. */
  action: string;
}

export interface ErrorEntry {
  code: number;
  /** Last code of a range (e.g. 200-299 permission errors); absent for a single code. */
  codeTo?: number;
  api: ErrorApi;
  /** Short name for lists and charts. */
  name: string;
  /** Meta's English titles/messages/details, every spelling seen; used for lookup by pasted text. */
  messages: readonly string[];
  class: ErrorClass;
  surface: ErrorSurface;
  retry: RetryRule;
  effects: ErrorEffects;
  /** Whether Meta bills the failed attempt (failed messages are not billed under per-message pricing). */
  billed: false;
  page: ErrorPage;
}
