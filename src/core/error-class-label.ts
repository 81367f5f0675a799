import { assertNever, type ErrorClass } from './error-class.js';

/** A short, operator-facing description of an error class, for docs, the CLI and the dashboard. */
export function describeClass(cls: ErrorClass): string {
  switch (cls) {
    case 'per_user_marketing_cap':
      return 'Per-user marketing cap: the recipient has had enough marketing for now; marketing cools off, everything else still sends';
    case 'experiment_hold':
      return 'Marketing experiment: marketing reaches this recipient only inside an open conversation window';
    case 'user_stopped_marketing':
      return 'Marketing stopped by the user: no marketing until they resume';
    case 'recipient_undeliverable':
      return 'Recipient undeliverable: the number cannot receive WhatsApp messages right now';
    case 'window_closed':
      return 'Window closed: free-form messages need an open customer-service window; send a template';
    case 'throughput_limit':
      return "Throughput limit: the sending number's messages-per-second allowance was exceeded";
    case 'pair_rate_limit':
      return 'Pair rate limit: too many messages to one recipient in a short time';
    case 'api_rate_limit':
      return 'API rate limit: Graph call quota of the app or business account used up';
    case 'transient_server':
      return 'Temporary Meta-side failure: retried with backoff';
    case 'template_problem':
      return 'Template problem: the template is paused, disabled, missing, or the payload does not fit it';
    case 'marketing_api_refused':
      return 'Marketing Messages path refused: the message must take the other sending path';
    case 'recipient_not_allowed':
      return 'Recipient not allowed: this business may not message this recipient';
    case 'account_problem':
      return 'Account problem: the sending account or number needs fixing before it can send';
    case 'auth_permission':
      return 'Token or permission problem: no call succeeds until the credentials are fixed';
    case 'bad_request':
      return 'Bad request: the request itself is wrong; fix it rather than retry';
    case 'unknown':
      return 'Unknown code: not in the catalogue';
    default:
      return assertNever(cls, 'error class');
  }
}

/** The explanation after the name ("the recipient has had enough marketing..."), capitalised. */
export function classSummary(cls: ErrorClass): string {
  const label = describeClass(cls);
  const rest = label.slice(classTitle(cls).length).replace(/^:\s*/, '');
  return rest === '' ? label : rest.charAt(0).toUpperCase() + rest.slice(1);
}

/** Just the name part ("Per-user marketing cap"), for table headings and short lists. */
export function classTitle(cls: ErrorClass): string {
  const label = describeClass(cls);
  const colon = label.indexOf(':');
  return colon === -1 ? label : label.slice(0, colon);
}
