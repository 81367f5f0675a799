import { defineEntries } from './define-entry.js';

/** This business may not message this recipient, now or at all; the contact's marketing state is untouched. */
export const RECIPIENT_ACCESS = defineEntries([
  {
    code: 131047,
    api: 'cloud',
    name: 'Customer-service window closed',
    messages: ['Re-engagement message', 'More than 24 hours have passed since the recipient last replied to the sender number.'],
    class: 'window_closed',
    surface: 'both',
    retry: { kind: 'never' },
    page: {
      meaning: 'A free-form (non-template) message was sent after the 24-hour customer-service window had closed.',
      cause: 'The person last wrote more than 24 hours ago. Outside the window only templates may be sent.',
      retry: 'Never as a free-form message. It would go through only if the person writes in again.',
      action: 'Send an approved template instead, or wait for the contact to reply and answer inside the window.',
    },
  },
  {
    code: 131030,
    api: 'cloud',
    name: 'Recipient not in allowed list',
    messages: ['Recipient phone number not in allowed list', 'Add recipient phone number to recipient list and try again.'],
    class: 'recipient_not_allowed',
    surface: 'send_response',
    retry: { kind: 'never' },
    page: {
      meaning: 'A test number may only message the few recipients added to its allowed list, and this one is not there.',
      cause: 'Sending from a test number (at most five allowed recipients) to anyone else.',
      retry: 'No; the list does not change by itself, so every resend gets the same answer.',
      action: 'Add the recipient in the App Dashboard, or send from a registered production number.',
    },
  },
  {
    code: 130403,
    api: 'cloud',
    name: 'Recipient blocked by the business',
    messages: ['Business has blocked this user'],
    class: 'recipient_not_allowed',
    surface: 'send_response',
    retry: { kind: 'never' },
    page: {
      meaning: 'Your business blocked this WhatsApp user, so you cannot message them.',
      cause: 'Someone blocked the user through the block-users API or WhatsApp Manager.',
      retry: 'No, not while the block stands.',
      action: 'Unblock the user first if messaging them is intended; otherwise drop them from the audience.',
    },
  },
  {
    code: 130497,
    api: 'cloud',
    name: 'Country not allowed',
    messages: [
      'Business account is restricted from messaging users in this country',
      'The WhatsApp Business Account is restricted from messaging to users in certain countries.',
    ],
    class: 'recipient_not_allowed',
    surface: 'send_response',
    retry: { kind: 'never' },
    page: {
      meaning: "Your business account may not message users in the recipient's country.",
      cause: 'A country restriction on the account, set by Meta for the kind of business or for the market.',
      retry: 'No. The restriction belongs to the account, so resending to the same country fails the same way.',
      action: "Leave that country out of campaigns, and check the account's restrictions in WhatsApp Manager.",
    },
  },
  {
    code: 131021,
    api: 'cloud',
    name: 'Recipient is the sender',
    messages: ['Recipient cannot be sender', 'Sender and recipient phone number is the same.'],
    class: 'recipient_not_allowed',
    surface: 'send_response',
    retry: { kind: 'never' },
    page: {
      meaning: 'The message was addressed to the business number that was sending it.',
      cause:
        "Usually the business's own number slipped into a contact import, often as a test row or as the sender " +
        'column of an exported chat.',
      retry: 'No; a number can never message itself.',
      action: 'Remove the business number from the contact list.',
    },
  },
]);
