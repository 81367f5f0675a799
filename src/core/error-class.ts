/**
 * What an error code means for sending, independent of its wording. Every switch over this union
 * must be exhaustive (the lint rule and `assertNever` enforce it), so adding a class is a
 * compile error everywhere a decision depends on it.
 */
export const ERROR_CLASSES = [
  'per_user_marketing_cap', // 131049 (and On-Premises 1026 when configured): marketing only, lifts by itself
  'experiment_hold', // 130472: marketing only inside an open window
  'user_stopped_marketing', // 131050: the user turned marketing off for this business
  'recipient_undeliverable', // 131026: not on WhatsApp, old client, terms not accepted
  'window_closed', // 131047, 470: free-form outside the customer-service window
  'throughput_limit', // 130429: the number's messages-per-second limit
  'pair_rate_limit', // 131056: too many messages to one user in a short time
  'api_rate_limit', // 80007, 4, 613: Graph/WABA call quotas
  'transient_server', // 131000, 131016, 1, 2, 131057, 133004: Meta-side, try again later
  'template_problem', // 132xxx: the template is paused, disabled, missing or the payload does not fit it
  'marketing_api_refused', // 131055, 134100-134102, 131063: the marketing path refused; reroute
  'recipient_not_allowed', // 131030, 130403, 130497, 131021: this recipient cannot be messaged by this business
  'account_problem', // 131031, 131042, 131048, 368, 131064, 133xxx: the sender or account must be fixed
  'auth_permission', // 0, 3, 10, 190, 200-299, 131005: token or permission
  'bad_request', // 100, 131008, 131009, 131051, ...: our request is wrong
  'unknown', // not in the catalogue
] as const;
export type ErrorClass = (typeof ERROR_CLASSES)[number];

export function assertNever(value: never, what = 'value'): never {
  throw new Error(`Unhandled ${what}: ${JSON.stringify(value)}`);
}
