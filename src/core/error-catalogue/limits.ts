import { defineEntries } from './define-entry.js';

/** Speed limits: per recipient, per sending number, and per app or business account on Graph calls. */
export const LIMITS = defineEntries([
  {
    code: 131056,
    api: 'cloud',
    name: 'Pair rate limit',
    messages: [
      '(Business Account, Consumer Account) pair rate limit hit',
      'Too many messages sent from the sender phone number to the same recipient phone number in a short period of time.',
      'Message failed to send because there were too many messages sent from this phone number to the same phone number in a short period of time.',
    ],
    class: 'pair_rate_limit',
    surface: 'send_response',
    retry: { kind: 'backoff', schedule: 'pair_rate' },
    page: {
      meaning: 'You wrote to this one person faster than WhatsApp allows a single business number to write to a single user.',
      cause:
        'The pair limit is about one message every six seconds from one business number to one user. Short bursts ' +
        '(up to around 45 messages in six seconds) are tolerated but borrow from the following minutes, so a burst ' +
        'of twenty can leave the pair blocked for about two minutes. Typical triggers are a flow that fires several ' +
        'templates in a row, or a retry loop aimed at one contact.',
      retry:
        'Yes, after a wait. Meta suggests waiting 4^n seconds after the n-th refusal (1 s, 4 s, 16 s, ...); Pacer uses ' +
        'the pair-rate backoff from policy for this contact only. Sends to other recipients are unaffected and carry on.',
      action:
        'Nothing to fix if it is rare. If it recurs, space out the messages your automations send to one person, ' +
        'merge back-to-back templates into one, and make sure nothing re-sends immediately on failure.',
    },
  },
  {
    code: 130429,
    api: 'cloud',
    name: 'Throughput limit',
    messages: ['Rate limit hit', 'Cloud API message throughput has been reached.'],
    class: 'throughput_limit',
    surface: 'send_response',
    retry: { kind: 'backoff', schedule: 'sender_throttle' },
    effects: { sender: 'throttle' },
    page: {
      meaning: 'The sending phone number went over its messages-per-second allowance.',
      cause:
        'Each registered number handles 80 messages per second by default, counting inbound and outbound traffic; ' +
        'numbers that qualify are raised to 1,000 per second automatically, and numbers shared with the WhatsApp ' +
        'Business app stay at 20. Meta keeps returning this code until the rate falls back under the allowance.',
      retry:
        'Yes. The message itself is fine; only the pace was wrong. Pacer slows the whole sender with the sender ' +
        'backoff from policy and sends the message again when the number has room.',
      action:
        'If it happens often, lower the configured send rate for the number, or check its current level with ' +
        'GET /<PHONE_NUMBER_ID>?fields=throughput. Large campaigns finish sooner at a steady rate than in bursts.',
    },
  },
  {
    code: 80007,
    api: 'graph',
    name: 'Business account rate limit',
    messages: ['Rate limit issues', 'The WhatsApp Business Account has reached its rate limit.'],
    class: 'api_rate_limit',
    surface: 'send_response',
    retry: { kind: 'backoff', schedule: 'sender_throttle' },
    effects: { sender: 'throttle' },
    page: {
      meaning: 'The WhatsApp Business Account made more Graph API calls than its hourly quota allows.',
      cause:
        'Business Management calls (templates, phone numbers, settings) are counted per app and per business ' +
        'account: about 200 requests an hour, or 5,000 for accounts with a registered number. Polling template ' +
        'status or phone-number details in a tight loop is the usual culprit.',
      retry: 'Yes, later. Pacer backs off the sender and retries once the quota has had time to refill.',
      action:
        'Call management endpoints less often: cache template and number details and rely on webhooks ' +
        '(template status, quality, account updates) instead of polling.',
    },
  },
  {
    code: 4,
    api: 'graph',
    name: 'App call rate limit',
    messages: ['API Too Many Calls', 'The app has reached its API call rate limit.'],
    class: 'api_rate_limit',
    surface: 'send_response',
    retry: { kind: 'backoff', schedule: 'sender_throttle' },
    effects: { sender: 'throttle' },
    page: {
      meaning: 'The Meta app behind your access token has used up its Graph API call allowance for now.',
      cause:
        'Graph limits calls per app. Other software using the same app (dashboards, other integrations) shares ' +
        'the allowance, so the spike may not come from Pacer.',
      retry: 'Yes, later. Pacer backs off the sender and tries again; nothing about the message needs to change.',
      action:
        'Open the app in the App Dashboard and look at its rate-limit usage. Reduce polling, or give Pacer its ' +
        'own app if several systems share one.',
    },
  },
  {
    code: 613,
    api: 'graph',
    name: 'Graph call rate limit',
    messages: ['Calls to this api have exceeded the rate limit.'],
    class: 'api_rate_limit',
    surface: 'send_response',
    retry: { kind: 'backoff', schedule: 'sender_throttle' },
    effects: { sender: 'throttle' },
    page: {
      meaning: 'A generic Graph API message saying an endpoint has been called too often.',
      cause:
        "Meta's WhatsApp error page does not list this code, but Graph returns it for call-rate limits in " +
        'general, and integrators see it on WhatsApp endpoints under heavy use.',
      retry: 'Yes, after backing off. Pacer treats it like the other call-rate limits and slows the sender.',
      action: 'Lower the rate of management calls as for codes 4 and 80007. No change to the message is needed.',
    },
  },
]);
