import { defineEntries } from './define-entry.js';

/**
 * Codes of the Marketing Messages API (POST /<PHONE_NUMBER_ID>/marketing_messages) and the one
 * Cloud API code that points there. The shared codes 100, 131009 and 132018 live with their families.
 */
export const MARKETING_MESSAGES_API = defineEntries([
  {
    code: 131055,
    api: 'marketing_messages',
    name: 'Only marketing templates allowed',
    messages: ['Method not allowed', 'Only marketing templates are supported.'],
    class: 'marketing_api_refused',
    surface: 'send_response',
    retry: { kind: 'reroute_cloud' },
    page: {
      meaning: 'The Marketing Messages API accepts marketing templates only, and this message was something else.',
      cause: 'A utility or authentication template (or a free-form message) was sent to /marketing_messages.',
      retry: 'Yes, at once, through the Cloud API /messages path, which carries every other category. Pacer reroutes it.',
      action: 'None needed; if it recurs, check which categories your configuration routes to the Marketing Messages API.',
    },
  },
  {
    code: 134100,
    api: 'marketing_messages',
    name: 'Only marketing messages supported',
    messages: ['Only marketing messages are supported', 'Only marketing messages supported'],
    class: 'marketing_api_refused',
    surface: 'send_response',
    retry: { kind: 'reroute_cloud' },
    page: {
      meaning: 'Same refusal as 131055, as reported from API version 23 onward.',
      cause: 'A template that is not in the marketing category was sent to the Marketing Messages API.',
      retry: 'Yes, at once, through the Cloud API /messages path. Pacer reroutes it.',
      action: 'Check template categories; Meta may have recategorised the template.',
    },
  },
  {
    code: 134101,
    api: 'marketing_messages',
    name: 'Template still syncing',
    messages: ['Template is still syncing', 'Template still syncing'],
    class: 'transient_server',
    surface: 'send_response',
    retry: { kind: 'backoff', schedule: 'transient' },
    page: {
      meaning: 'The template is not yet available to the Marketing Messages API.',
      cause: 'A template created or edited recently is copied over in the background, which takes up to about ten minutes.',
      retry: 'Yes, after a wait. Pacer retries on the transient schedule, which spans several minutes.',
      action: 'Allow a few minutes between approving a template and starting a campaign with it.',
    },
  },
  {
    code: 134102,
    api: 'marketing_messages',
    name: 'Template not eligible',
    messages: ['Template unavailable', 'Template is not eligible for the Marketing Messages API'],
    class: 'marketing_api_refused',
    surface: 'send_response',
    retry: { kind: 'reroute_cloud' },
    page: {
      meaning: 'The Marketing Messages API cannot use this template (Meta answers with HTTP 500 here).',
      cause:
        'The template or the account is not eligible, for instance onboarding is incomplete; ' +
        'marketing_messages_onboarding_status on the business account tells which.',
      retry: 'Yes, at once, through the Cloud API /messages path. Pacer reroutes it.',
      action: 'Check GET /<WABA_ID>?fields=marketing_messages_onboarding_status and finish onboarding if it is not ONBOARDED.',
    },
  },
  {
    code: 134103,
    api: 'marketing_messages',
    name: 'Marketing Messages API refusal',
    messages: ['Marketing Messages API error 134103'],
    class: 'marketing_api_refused',
    surface: 'send_response',
    retry: { kind: 'reroute_cloud' },
    page: {
      meaning: 'A Marketing Messages API code announced by Meta in May 2025 whose meaning Meta has not spelled out.',
      cause: 'Unknown. It is specific to the Marketing Messages path.',
      retry: 'Pacer falls back to the Cloud API /messages path, which carries marketing too, rather than guessing at a ' + 'wait.',
      action: 'If it recurs, keep the fbtrace_id and details and ask Meta support what it means for your account.',
    },
  },
  {
    code: 1752041,
    api: 'marketing_messages',
    name: 'Duplicate onboarding request',
    messages: ['Duplicate onboarding request'],
    class: 'bad_request',
    surface: 'send_response',
    retry: { kind: 'never' },
    page: {
      meaning: 'An onboarding request for the Marketing Messages API was sent again while one already exists.',
      cause: 'Onboarding was triggered twice, for example by a setup script run a second time.',
      retry: 'No; the first request stands and a repeat only gets this answer again. Sending is not affected.',
      action: 'Check marketing_messages_onboarding_status and wait for the pending onboarding to complete.',
    },
  },
  {
    code: 131063,
    api: 'cloud',
    name: 'Marketing disabled on Cloud API',
    messages: ['Marketing messages are disabled on Cloud API for this WhatsApp Business Account'],
    class: 'marketing_api_refused',
    surface: 'send_response',
    // Rerouting to /messages is what just failed; the marketing path has to change first.
    retry: { kind: 'after_operator_fix' },
    effects: { campaign: 'pause' },
    page: {
      meaning: 'A marketing template went to /messages, but this business account sends marketing only through the Marketing Messages API.',
      cause: 'The account has disable_marketing_messages_on_cloud_api set to true.',
      retry:
        'Not through /messages: every marketing send there fails the same way, so Pacer pauses the campaign. It ' +
        'goes through once marketing is routed to /marketing_messages.',
      action:
        "Set the marketing path in Pacer's policy to marketing_messages (the account must be onboarded), or turn " +
        'the account flag off, then resume the campaign.',
    },
  },
]);
