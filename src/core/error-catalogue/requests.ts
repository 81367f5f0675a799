import { defineEntries } from './define-entry.js';

/** Our request was wrong: fixing the payload, not waiting, is what helps. */
export const REQUESTS = defineEntries([
  {
    code: 100,
    api: 'cloud',
    name: 'Invalid parameter',
    messages: [
      'Invalid parameter',
      'The request included one or more unsupported or misspelled parameters.',
      'Message must be a template message.',
    ],
    class: 'bad_request',
    surface: 'send_response',
    retry: { kind: 'never' },
    page: {
      meaning: 'The request contained a parameter Meta does not accept.',
      cause:
        'A misspelt or unsupported field, a field from a newer API version, or on the Marketing Messages API a ' +
        'non-template message ("Message must be a template message.").',
      retry: 'No; the same request fails the same way.',
      action: 'Read error_data.details for the offending field. On the Marketing Messages API send only marketing templates.',
    },
  },
  {
    code: 131008,
    api: 'cloud',
    name: 'Required parameter missing',
    messages: ['Required parameter is missing', 'The request is missing a required parameter.'],
    class: 'bad_request',
    surface: 'send_response',
    retry: { kind: 'never' },
    page: {
      meaning: 'A field the endpoint requires was absent.',
      cause: 'For example no `to` or `recipient`, no template language, or an empty component.',
      retry: 'No; the same request is missing the same field every time.',
      action: 'Read error_data.details for the field name and fix the request or the campaign data that fills it.',
    },
  },
  {
    code: 131009,
    api: 'cloud',
    name: 'Parameter value invalid',
    messages: ['Parameter value is not valid', 'One or more parameter values are invalid.'],
    class: 'bad_request',
    surface: 'send_response',
    retry: { kind: 'never' },
    page: {
      meaning: 'A field had a value Meta does not accept.',
      cause:
        'A malformed phone number, an unknown media ID, a bad enum value. On the Marketing Messages API the same ' +
        'code also appears while ad-account sync is still incomplete after onboarding.',
      retry: 'No for a bad value. In the Marketing Messages onboarding case, wait about ten minutes and try again.',
      action: 'Read error_data.details for the field; fix the value in the request or in your contact data.',
    },
  },
  {
    code: 131051,
    api: 'cloud',
    name: 'Unsupported message type',
    messages: [
      'Unsupported message type',
      'Message type unknown',
      'Message type is currently not supported.',
      'Message type is not currently supported',
    ],
    class: 'bad_request',
    surface: 'send_response',
    retry: { kind: 'never' },
    page: {
      meaning: 'The message type is not supported, either in what we sent or in what a user sent us.',
      cause:
        'Outbound: a type name WhatsApp does not know. Inbound: the user sent something the API cannot pass on ' +
        '(it arrives as type "unsupported" carrying this code); that needs no action from the sender side.',
      retry: 'No; an unsupported type stays unsupported.',
      action: 'For outbound sends, use a supported type. For inbound ones, ask the person to send the content another way if it matters.',
    },
  },
  {
    code: 131052,
    api: 'cloud',
    name: 'Inbound media download error',
    messages: ['Media download error', 'Unable to download the media sent by the user.'],
    class: 'bad_request',
    surface: 'inbound_webhook',
    retry: { kind: 'never' },
    page: {
      meaning: 'WhatsApp could not fetch a media file a user sent you.',
      cause: "An unsupported media type or a download failure on Meta's side. It concerns an inbound message, not a send.",
      retry: 'Nothing to resend; sending is unaffected.',
      action: 'If the file matters, ask the person to send it through another channel.',
    },
  },
  {
    code: 131053,
    api: 'cloud',
    name: 'Media upload error',
    messages: ['Media upload error', 'Unable to upload the media used in the message.'],
    class: 'bad_request',
    surface: 'status_webhook',
    retry: { kind: 'never' },
    page: {
      meaning: 'The media attached to the message could not be processed.',
      cause: 'Unsupported type or codec, a file over the size limit, or a link that did not serve the file.',
      retry: 'Not with the same file.',
      action: 'Read error_data.details, check the file against the supported media types and sizes, and host it on a reachable URL.',
    },
  },
  {
    code: 131062,
    api: 'cloud',
    name: 'Business-scoped user ID not supported here',
    messages: ['BSUID recipient not supported for this message', 'BSUID recipients are not supported for this message'],
    class: 'bad_request',
    surface: 'send_response',
    retry: { kind: 'never' },
    page: {
      meaning: 'This kind of message cannot be addressed to a business-scoped user ID.',
      cause:
        'A send addressed with `recipient` (a BSUID) needs a phone number: an authentication template (one-tap, zero-tap or copy-code), or a feature such as a maximum price. Pacer does not send authentication templates to a contact it knows only by BSUID (skip reason `needs_phone_number`).',
      retry: 'No, not addressed this way.',
      action: 'Address the message by phone number where you have one, or drop the unsupported option.',
    },
  },
  {
    code: 137000,
    api: 'cloud',
    name: 'Identity key hash mismatch',
    messages: ['Identity key hash mismatch', 'Recipient identity key hash mismatch'],
    class: 'bad_request',
    surface: 'send_response',
    retry: { kind: 'never' },
    page: {
      meaning: 'The recipient_identity_key_hash sent with the message no longer matches the recipient.',
      cause: 'The person reinstalled WhatsApp or changed device, so their identity key changed.',
      retry: 'Not as sent. A new send without the hash, or with the current one, is a different request.',
      action: 'Decide whether the identity change matters for this message; if not, resend without the hash.',
    },
  },
]);
