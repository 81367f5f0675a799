import { defineEntries } from './define-entry.js';

/** Meta-side trouble that clears by itself: unknown errors, outages, maintenance windows. */
export const TRANSIENT = defineEntries([
  {
    code: 131000,
    api: 'cloud',
    name: 'Something went wrong',
    messages: ['Something went wrong', 'Message failed to send due to an unknown error.'],
    class: 'transient_server',
    surface: 'both',
    retry: { kind: 'backoff', schedule: 'transient' },
    page: {
      meaning: 'Meta could not send the message and did not say why.',
      cause:
        'A catch-all for failures inside Meta. Most clear up on their own; a steady stream for one kind of ' +
        'message can also point at an unusual payload Meta does not handle.',
      retry:
        'Yes. Pacer retries with exponential backoff and jitter (transient schedule in policy) and gives up after ' +
        'the configured number of attempts.',
      action:
        'None for a one-off. If it keeps happening, keep the fbtrace_id from the response and open a Direct ' +
        'Support ticket with Meta, noting which message type and template were involved.',
    },
  },
  {
    code: 131016,
    api: 'cloud',
    name: 'Service unavailable',
    messages: ['Service unavailable', 'A service is temporarily unavailable.'],
    class: 'transient_server',
    surface: 'send_response',
    retry: { kind: 'backoff', schedule: 'transient' },
    page: {
      meaning: 'A Meta service the Cloud API depends on was down when the message was sent.',
      cause: "An outage or overload on Meta's side; your request was not at fault.",
      retry: 'Yes. Pacer retries on the transient schedule; the message goes out once the service is back.',
      action:
        'Check the WhatsApp Business Platform status page (metastatus.com) if failures persist; nothing needs to ' +
        'change in your setup.',
    },
  },
  {
    code: 1,
    api: 'graph',
    name: 'API unknown',
    messages: ['API Unknown', 'Invalid request or possible server error.'],
    class: 'transient_server',
    surface: 'send_response',
    retry: { kind: 'backoff', schedule: 'transient' },
    page: {
      meaning: 'Graph could not process the call and could not tell whether the request or the server was to blame.',
      cause: 'Either a short server-side fault or a malformed request that Graph failed to describe more precisely.',
      retry:
        'A few spaced retries are reasonable; Pacer uses the transient schedule. If every attempt fails the same ' +
        'way, the request is the likelier cause and further retries will not help.',
      action:
        'If the status page shows no outage, compare the failing request with the endpoint reference (field names, ' +
        'types, API version).',
    },
  },
  {
    code: 2,
    api: 'graph',
    name: 'API service',
    messages: ['API Service', 'Temporary due to downtime or due to being overloaded.'],
    class: 'transient_server',
    surface: 'send_response',
    retry: { kind: 'backoff', schedule: 'transient' },
    page: {
      meaning: 'The Graph API was down or overloaded and did not process the call.',
      cause: 'Downtime or overload at Meta; the request itself was fine and nothing about it needs changing.',
      retry:
        'Yes. Pacer retries on the transient schedule with growing, jittered gaps, so a short outage costs a few ' +
        'minutes of delay rather than failed messages.',
      action: 'Nothing to change. If it lasts more than a few minutes, check the platform status page before digging further.',
    },
  },
  {
    code: 131057,
    api: 'cloud',
    name: 'Account in maintenance mode',
    messages: [
      'Account in maintenance mode',
      'WhatsApp Business Account is in maintenance mode. One reason for this could be that the account is undergoing a throughput upgrade.',
    ],
    class: 'transient_server',
    surface: 'send_response',
    retry: { kind: 'backoff', schedule: 'transient' },
    page: {
      meaning: 'The business account was briefly in maintenance and refused sends.',
      cause:
        'Most often the automatic upgrade from 80 to 1,000 messages per second, which takes up to about a minute; ' +
        'a phone_number_quality_update webhook with THROUGHPUT_UPGRADE follows when it completes.',
      retry: 'Yes, after a short wait. Pacer retries on the transient schedule, which comfortably covers a minute.',
      action: 'None. If it lasts much longer than a few minutes, check the account in WhatsApp Manager.',
    },
  },
  {
    code: 2494100,
    api: 'cloud',
    name: 'Phone number in maintenance mode',
    messages: ['Phone number in maintenance mode', 'Account is in maintenance mode'],
    class: 'transient_server',
    surface: 'send_response',
    retry: { kind: 'backoff', schedule: 'transient' },
    page: {
      meaning: 'The sending phone number was briefly in maintenance and refused sends.',
      cause: 'Work on the number at Meta, such as a migration between accounts or a configuration change.',
      retry: 'Yes, in a few minutes. Pacer retries on the transient schedule; other numbers keep sending meanwhile.',
      action: "None unless it lasts longer than a few minutes; then check the number's status in WhatsApp Manager.",
    },
  },
  {
    code: 133004,
    api: 'cloud',
    name: 'Server temporarily unavailable',
    messages: ['Server Temporarily Unavailable', 'Server is temporarily unavailable.'],
    class: 'transient_server',
    surface: 'send_response',
    retry: { kind: 'backoff', schedule: 'transient' },
    page: {
      meaning: 'The server handling the request (usually a registration call) was temporarily unavailable.',
      cause: 'A Meta-side outage. The details field of the response sometimes says more.',
      retry: 'Yes. Pacer retries on the transient schedule; read the details field if it keeps failing.',
      action: 'Check the platform status page before retrying by hand.',
    },
  },
]);
