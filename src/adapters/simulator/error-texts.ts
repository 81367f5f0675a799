/**
 * The errors the simulator produces, with the title Meta sends for each (titles are API data),
 * a short `details` text, and the HTTP status used for synchronous errors. Clients must not key on
 * that status; it is here so the simulator answers the way Meta's older table says it does.
 */
export interface ErrorText {
  title: string;
  details: string;
  httpStatus: number;
  transient: boolean;
}

const TEXTS: Record<number, ErrorText> = {
  2: {
    title: 'Service temporarily unavailable',
    details: 'The API is down or overloaded; try again later.',
    httpStatus: 503,
    transient: true,
  },
  100: { title: 'Invalid parameter', details: 'A parameter in the request is not valid.', httpStatus: 400, transient: false },
  190: { title: 'Invalid OAuth access token - Cannot parse access token', details: '', httpStatus: 401, transient: false },
  130429: { title: 'Rate limit hit', details: 'Cloud API message throughput has been reached.', httpStatus: 400, transient: true },
  130472: {
    title: "User's number is part of an experiment",
    details: "Failed to send message because this user's phone number is part of an experiment",
    httpStatus: 400,
    transient: false,
  },
  131008: {
    title: 'Required parameter is missing',
    details: 'A required parameter is missing from the request.',
    httpStatus: 400,
    transient: false,
  },
  131009: {
    title: 'Parameter value is not valid',
    details: 'One or more parameter values are invalid.',
    httpStatus: 400,
    transient: false,
  },
  131053: {
    title: 'Media upload error',
    details: 'Unable to upload the media used in the message.',
    httpStatus: 400,
    transient: false,
  },
  131016: { title: 'Service unavailable', details: 'A service is temporarily unavailable.', httpStatus: 500, transient: true },
  131062: {
    title: 'Business-scoped user ID recipients not supported',
    details: 'Business-scoped user ID (BSUID) recipients are not supported for this message.',
    httpStatus: 400,
    transient: false,
  },
  131026: {
    title: 'Message undeliverable',
    details: 'The message could not be delivered: the number may not be on WhatsApp or its owner has not accepted the terms.',
    httpStatus: 400,
    transient: false,
  },
  131047: {
    title: 'Re-engagement message',
    details: 'More than 24 hours have passed since the recipient last replied to this number.',
    httpStatus: 400,
    transient: false,
  },
  131049: {
    title: 'This message was not delivered to maintain healthy ecosystem engagement.',
    details: 'In order to maintain a healthy ecosystem engagement, the message failed to be delivered.',
    httpStatus: 400,
    transient: false,
  },
  131050: {
    title: 'Unable to deliver the message. This recipient has chosen to stop receiving marketing messages on WhatsApp from your business',
    details: 'The recipient has stopped marketing messages from this business.',
    httpStatus: 400,
    transient: false,
  },
  131056: {
    title: '(Business Account, Consumer Account) pair rate limit hit',
    details: 'Too many messages were sent from this phone number to the same recipient in a short time.',
    httpStatus: 400,
    transient: true,
  },
  132001: {
    title: 'Template name does not exist in the translation',
    details: 'No approved template with this name and language.',
    httpStatus: 404,
    transient: false,
  },
  132000: {
    title: 'Template Param Count Mismatch',
    details: 'The number of parameters does not match the number of variables the template defines.',
    httpStatus: 400,
    transient: false,
  },
  132012: {
    title: 'Template Parameter Format Mismatch',
    details: 'The parameter values are not in the format the template defines.',
    httpStatus: 400,
    transient: false,
  },
  132018: {
    title: 'Template validation error',
    details: 'There was an issue with the parameters in your template.',
    httpStatus: 400,
    transient: false,
  },
  132015: { title: 'Template is Paused', details: 'The template is paused because of low quality.', httpStatus: 400, transient: false },
  132016: {
    title: 'Template is Disabled',
    details: 'The template was paused too often and is disabled for good.',
    httpStatus: 400,
    transient: false,
  },
  134100: {
    title: 'Only marketing messages are supported',
    details: 'This endpoint accepts marketing templates only.',
    httpStatus: 400,
    transient: false,
  },
};

export function errorText(code: number): ErrorText {
  return TEXTS[code] ?? { title: 'Unknown error', details: 'An unknown error occurred.', httpStatus: 500, transient: true };
}

export const ERROR_DOCS_HREF = 'https://developers.facebook.com/docs/whatsapp/cloud-api/support/error-codes/';
