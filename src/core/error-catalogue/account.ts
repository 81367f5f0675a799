import { defineEntries } from './define-entry.js';

/** The sending account or number must be fixed by a person: policy locks, billing, spam limits, setup. */
export const ACCOUNT = defineEntries([
  {
    code: 131048,
    api: 'cloud',
    name: 'Spam rate limit',
    messages: [
      'Spam rate limit hit',
      'Message failed to send because there are restrictions on how many messages can be sent from this phone number.',
      'Message failed to send because there are restrictions on how many messages can be sent from this phone number. This may be because too many previous messages were blocked or flagged as spam.',
    ],
    class: 'account_problem',
    surface: 'both',
    retry: { kind: 'after_operator_fix' },
    effects: { sender: 'stop', campaign: 'pause' },
    page: {
      meaning: 'WhatsApp restricted how much this phone number may send, because earlier messages were blocked or reported.',
      cause:
        'A sending pattern recipients did not want: cold lists, frequent promotions, no easy way to opt out. This ' +
        "is about the number's reputation, unlike 131049, which is about one recipient's inbox.",
      retry:
        'Not by simply sending again; more volume deepens the problem. Pacer stops the sender and pauses running ' +
        'campaigns until an operator resumes them.',
      action:
        "Check the number's quality rating in WhatsApp Manager, find the campaign and template that drew the " +
        'blocks, and narrow the audience to contacts who opted in and engage. Resume gradually.',
    },
  },
  {
    code: 131064,
    api: 'cloud',
    name: 'Messaging limited for template misclassification',
    messages: ['Account has reached its messaging limit because of template classification violations'],
    class: 'account_problem',
    surface: 'send_response',
    retry: { kind: 'after_operator_fix' },
    effects: { sender: 'stop', campaign: 'pause' },
    page: {
      meaning: "Meta capped the account's messaging because templates were filed under the wrong category.",
      cause:
        'Promotional content submitted as utility or authentication. The cap covers template sends and direct sends ' +
        'alike and lasts for an enforcement period set by Meta.',
      retry: 'No, not before the enforcement period ends. Pacer stops the sender and pauses campaigns.',
      action:
        'Review template categories, recategorise or retire the offending templates, and wait out the enforcement ' +
        'period shown in WhatsApp Manager before resuming.',
    },
  },
  {
    code: 368,
    api: 'cloud',
    name: 'Temporarily blocked for policy violations',
    messages: [
      'Temporarily blocked for policies violations',
      'The WhatsApp Business Account associated with the app has been restricted or disabled for violating a platform policy.',
    ],
    class: 'account_problem',
    surface: 'send_response',
    retry: { kind: 'after_operator_fix' },
    effects: { sender: 'stop', campaign: 'pause' },
    page: {
      meaning: 'The business account is restricted or disabled for breaking a WhatsApp policy.',
      cause: 'A policy enforcement on the account, for example after reports about its messaging or its business.',
      retry: 'No. Pacer stops the sender and pauses campaigns until someone resolves the enforcement.',
      action:
        'Read the violation in WhatsApp Manager (account_update webhooks also describe it), fix the cause, and ' +
        'request a review if you think it is wrong.',
    },
  },
  {
    code: 131031,
    api: 'cloud',
    name: 'Account locked',
    messages: [
      'Account has been locked',
      'The WhatsApp Business Account associated with the app has been restricted or disabled for violating a platform policy, or we were unable to verify data included in the request against data set on the WhatsApp Business Account.',
    ],
    class: 'account_problem',
    surface: 'send_response',
    retry: { kind: 'after_operator_fix' },
    effects: { sender: 'stop', campaign: 'pause' },
    page: {
      meaning: 'The business account is locked.',
      cause:
        'Either a policy enforcement, or data in a request that did not match the account, such as a wrong ' + 'two-step verification PIN.',
      retry: 'No. Pacer stops the sender and pauses campaigns.',
      action:
        'Query the Health Status API and WhatsApp Manager for the reason; correct the PIN or resolve the ' + 'enforcement, then resume.',
    },
  },
  {
    code: 131042,
    api: 'cloud',
    name: 'Payment problem',
    messages: ['Business eligibility payment issue', 'There was an error related to your payment method.'],
    class: 'account_problem',
    surface: 'both',
    retry: { kind: 'after_operator_fix' },
    effects: { sender: 'stop', campaign: 'pause' },
    page: {
      meaning: 'Meta will not send because billing for the account is not in order.',
      cause:
        'No payment method attached, a credit line over its limit or inactive, time zone or currency not set, a ' +
        'pending or declined on-behalf-of request, or a deleted or suspended business account.',
      retry: 'No. Pacer stops the sender and pauses campaigns until billing is fixed.',
      action: 'Fix the payment setup in Meta Business Settings, then resume.',
    },
  },
  {
    code: 131045,
    api: 'cloud',
    name: 'Registration certificate error',
    messages: ['Incorrect certificate', 'Message failed to send due to a phone number registration error.'],
    class: 'account_problem',
    surface: 'send_response',
    retry: { kind: 'after_operator_fix' },
    effects: { sender: 'stop', campaign: 'pause' },
    page: {
      meaning: 'The sending number is not properly registered for the Cloud API, so Meta cannot send from it.',
      cause: 'Registration was never completed, was undone by a deregistration, or the number moved to another setup.',
      retry: 'No. Every send from the number fails the same way, so Pacer stops the sender and pauses campaigns.',
      action: 'Register the number (POST /<PHONE_NUMBER_ID>/register with its two-step PIN), then resume the sender.',
    },
  },
  {
    code: 131037,
    api: 'cloud',
    name: 'Display name not approved',
    messages: ['WhatsApp provided number needs display name approval before message can be sent.'],
    class: 'account_problem',
    surface: 'send_response',
    retry: { kind: 'after_operator_fix' },
    effects: { sender: 'stop', campaign: 'pause' },
    page: {
      meaning: 'This Meta-provided (555) number cannot send until its display name is approved.',
      cause: 'The display name is still under review or was rejected.',
      retry: 'No. Every send from the number fails until approval, so Pacer stops the sender.',
      action: 'Check the display name status in WhatsApp Manager; submit a name that follows the display name rules if it was rejected.',
    },
  },
  {
    code: 33,
    api: 'cloud',
    name: 'Business phone number deleted',
    messages: ['Parameter value is not valid', 'The business phone number has been deleted.'],
    class: 'account_problem',
    surface: 'send_response',
    retry: { kind: 'never' },
    effects: { sender: 'stop', campaign: 'pause' },
    page: {
      meaning: 'The phone number ID used to send no longer exists.',
      cause: 'The number was deleted from the business account, or the configured ID is wrong.',
      retry: 'Never from this number. Pacer stops the sender.',
      action: 'Check WHATSAPP_PHONE_NUMBER_ID against WhatsApp Manager and configure a live number.',
    },
  },
  {
    code: 135000,
    api: 'cloud',
    name: 'Generic user error',
    messages: ['Generic user error', 'Message failed to send because of an unknown error with your request parameters.'],
    class: 'account_problem',
    surface: 'both',
    retry: { kind: 'after_operator_fix' },
    effects: { sender: 'stop', campaign: 'pause' },
    page: {
      meaning: 'Meta refused the message without naming a reason, or dropped it under business-portfolio pacing.',
      cause:
        'Synchronously it can mean an odd request. Asynchronously it means portfolio pacing: a large burst from a ' +
        'young or suspected portfolio was held for quality assessment and then dropped, and the portfolio is ' +
        'blocked from sending or creating templates while Meta reviews it.',
      retry: 'No. Pacer stops the sender and pauses campaigns; a blocked portfolio cannot send anyway.',
      action:
        'Look for account alerts in WhatsApp Manager. Send future campaigns in smaller batches to engaged ' +
        'contacts. Contact Meta support if it keeps happening with ordinary requests.',
    },
  },
  {
    code: 134011,
    api: 'cloud',
    name: 'Payments terms not accepted',
    messages: ['WhatsApp Payments terms of service not accepted'],
    class: 'account_problem',
    surface: 'send_response',
    retry: { kind: 'after_operator_fix' },
    page: {
      meaning: 'A payments message was sent but the business has not accepted the WhatsApp Payments terms.',
      cause: 'Payments were never onboarded for this account.',
      retry: 'No. Only payments messages are affected; everything else keeps sending.',
      action: 'Accept the WhatsApp Payments terms for the account, or stop sending payment messages.',
    },
  },
]);
