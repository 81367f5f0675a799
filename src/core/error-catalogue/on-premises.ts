import { defineEntries } from './define-entry.js';

/**
 * On-Premises API codes (the API reached end of life on 23 Oct 2025). They still turn up in old data
 * and through providers that map them; meanings follow the common mapping rather than a current Meta page.
 */
export const ON_PREMISES = defineEntries([
  {
    code: 470,
    api: 'on_premises',
    name: 'Window closed (On-Premises)',
    messages: [
      'Re-engagement message',
      'Message failed to send because more than 24 hours have passed since the customer last replied to this number.',
    ],
    class: 'window_closed',
    surface: 'both',
    retry: { kind: 'never' },
    page: {
      meaning: 'The On-Premises equivalent of 131047: a free-form message outside the 24-hour customer-service window.',
      cause: 'The person last wrote more than 24 hours before the send.',
      retry: 'Never as a free-form message; only once the person writes again.',
      action: 'Send an approved template instead, or reply after the contact writes in.',
    },
  },
  {
    code: 471,
    api: 'on_premises',
    name: 'Spam rate limit (On-Premises)',
    messages: [
      'Spam rate limit hit',
      'Message failed to send because there are restrictions on how many messages can be sent from this phone number.',
    ],
    class: 'account_problem',
    surface: 'both',
    retry: { kind: 'after_operator_fix' },
    effects: { sender: 'stop', campaign: 'pause' },
    page: {
      meaning: 'The On-Premises counterpart of 131048: sending from the number is restricted because of its spam rate.',
      cause: 'Too many earlier messages were blocked or reported by recipients.',
      retry: 'Not by resending. Pacer stops the sender and pauses campaigns.',
      action: 'Check the quality rating, find the campaign that drew the blocks, and narrow the audience before resuming.',
    },
  },
  {
    code: 472,
    api: 'on_premises',
    name: 'Recipient in experiment (On-Premises)',
    messages: ["User's number is part of an experiment"],
    class: 'experiment_hold',
    surface: 'status_webhook',
    retry: { kind: 'when_window_opens' },
    effects: { contact: 'marketing_hold_for_window' },
    page: {
      meaning: 'The On-Premises counterpart of 130472: the recipient is in the marketing experiment group.',
      cause: 'A small share of users receive no marketing templates unless a conversation window is open.',
      retry: 'Only once the contact writes in and a window opens; Pacer holds the message until then.',
      action: 'Ask the customer through another channel to message you, then reply inside the window.',
    },
  },
  {
    code: 1026,
    api: 'on_premises',
    name: 'Receiver incapable',
    messages: ['Receiver incapable', 'Receiver Incapable'],
    class: 'recipient_undeliverable',
    surface: 'status_webhook',
    retry: { kind: 'never' },
    effects: { contact: 'unreachable' },
    page: {
      meaning: 'The recipient could not receive the message: no WhatsApp account, or a client that cannot show it.',
      cause:
        'The number is not on WhatsApp, the client is too old, or it cannot render a feature the message uses. In ' +
        '2023 Meta also used this code for the per-user marketing limit on On-Premises, without saying when the ' +
        'limit was the reason.',
      retry:
        'By default it is treated as undeliverable: no retry, and the contact is marked unreachable until a long ' +
        'quiet period passes or they write in. If policy lists 1026 in capCodes (for On-Premises-era traffic where ' +
        'it stood for the marketing cap), Pacer handles it exactly like 131049 instead: marketing cool-off of at ' +
        'least 24 hours with growing gaps, nothing else affected.',
      action:
        'Decide which reading fits your traffic. If 1026 failures cluster on marketing sends to people who do ' +
        'receive your utility messages, add 1026 to capCodes; otherwise leave the default and verify the numbers.',
    },
  },
]);
