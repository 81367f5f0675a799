import { defineEntries } from './define-entry.js';

/** The template is paused, disabled, missing, or the payload does not fit it. */
export const TEMPLATES = defineEntries([
  {
    code: 132000,
    api: 'cloud',
    name: 'Template parameter count mismatch',
    messages: [
      'Template Param Count Mismatch',
      'The number of variable parameter values included in the request did not match the number of variable parameters defined in the template.',
    ],
    class: 'template_problem',
    surface: 'send_response',
    retry: { kind: 'after_operator_fix' },
    effects: { template: 'review', campaign: 'pause' },
    page: {
      meaning: 'The send carried a different number of variables than the template defines.',
      cause:
        'The template was edited after the campaign was set up, a component (header, body, button) is missing its ' +
        'parameters, or a segment column meant to fill a variable was empty for everyone.',
      retry: 'No. Every message built the same way fails the same way, so Pacer pauses the campaign.',
      action: "Compare the campaign's variable mapping with the approved template in WhatsApp Manager, fix it and resume.",
    },
  },
  {
    code: 132001,
    api: 'cloud',
    name: 'Template does not exist',
    messages: ['Template does not exist', 'The template does not exist in the specified language or the template has not been approved.'],
    class: 'template_problem',
    surface: 'send_response',
    retry: { kind: 'after_operator_fix' },
    effects: { template: 'review', campaign: 'pause' },
    page: {
      meaning: 'Meta found no approved template with that name in that language.',
      cause:
        'A typo in the name, a language code that differs from the approved one (en vs en_US), a template still ' +
        'pending review, or one that was deleted or rejected.',
      retry: 'No. Pacer pauses the campaign; nothing will change until the template is fixed.',
      action: 'Check the exact name, language and status in WhatsApp Manager, then resume the campaign.',
    },
  },
  {
    code: 132005,
    api: 'cloud',
    name: 'Template text too long',
    messages: ['Template Hydrated Text Too Long', 'Translated text is too long.'],
    class: 'template_problem',
    surface: 'send_response',
    retry: { kind: 'never' },
    page: {
      meaning: 'Once the variables were filled in, the text exceeded the length WhatsApp accepts.',
      cause: 'A long value for this recipient (a name, an address, a product list) pushed the message over the limit.',
      retry: 'Not with the same values. Other recipients with shorter values can still go through, so the campaign continues.',
      action: 'Trim or cap the variable values in your data, or shorten the template text around them.',
    },
  },
  {
    code: 132007,
    api: 'cloud',
    name: 'Template content policy violation',
    messages: ['Template Format Character Policy Violated', 'Template content violates a WhatsApp policy.'],
    class: 'template_problem',
    surface: 'send_response',
    retry: { kind: 'after_operator_fix' },
    effects: { template: 'review', campaign: 'pause' },
    page: {
      meaning: 'The rendered message breaks a WhatsApp content or formatting rule.',
      cause:
        'Often a variable value that introduces forbidden content or formatting (new lines, tabs, more than four ' +
        'consecutive spaces in a parameter), or content that Meta now judges against its policies.',
      retry: 'No. Pacer pauses the campaign until the content is fixed.',
      action: "Check the variable values and the template against Meta's template guidelines and rejection reasons.",
    },
  },
  {
    code: 132012,
    api: 'cloud',
    name: 'Template parameter format mismatch',
    messages: [
      'Template Parameter Format Mismatch',
      'Variable parameter values formatted incorrectly.',
      'The variable parameter values included in the request are not using the format specified in the template.',
    ],
    class: 'template_problem',
    surface: 'send_response',
    retry: { kind: 'after_operator_fix' },
    effects: { template: 'review', campaign: 'pause' },
    page: {
      meaning: 'A variable was sent in a different shape than the template expects.',
      cause:
        'For example text where the template wants an image header, a missing header media, or a currency or ' +
        'date parameter in the wrong structure.',
      retry: 'No. Pacer pauses the campaign; all messages built this way fail alike.',
      action: 'Match each component and parameter type to the approved template, then resume.',
    },
  },
  {
    code: 132015,
    api: 'cloud',
    name: 'Template paused',
    messages: ['Template is Paused', 'Template is paused due to low quality so it cannot be sent in a template message.'],
    class: 'template_problem',
    surface: 'both',
    retry: { kind: 'after_operator_fix' },
    effects: { template: 'pause' },
    page: {
      meaning: 'WhatsApp paused this template because recipients reacted badly to it.',
      cause:
        'The template\'s quality turned red (blocks, reports, "not interested"). A first pause lasts 3 hours, a ' +
        'second 6 hours; a third disables it (132016). Under template pacing, messages held for quality assessment ' +
        'are dropped with this code in a status webhook when feedback goes bad, and such pauses must be lifted by ' +
        'hand (POST /<TEMPLATE_ID>/unpause).',
      retry:
        'Not while it is paused. Pacer marks the template paused and sends with it again only when it is active ' +
        'again (a template status webhook says so) or an operator confirms the fix. Refused sends are not billed.',
      action:
        'Read the quality feedback in WhatsApp Manager. Improve or retarget the content, send it to fewer and more ' +
        'engaged contacts, and consider a new template rather than pushing the paused one.',
    },
  },
  {
    code: 132016,
    api: 'cloud',
    name: 'Template disabled',
    messages: ['Template is Disabled', 'Template has been paused too many times due to low quality and is now permanently disabled.'],
    class: 'template_problem',
    surface: 'send_response',
    retry: { kind: 'never' },
    effects: { template: 'disable', campaign: 'pause' },
    page: {
      meaning: 'The template has been switched off for good after repeated low-quality pauses.',
      cause: 'It was paused for low quality a third time.',
      retry: 'Never with this template. Pacer disables it and pauses campaigns that use it.',
      action:
        'Create a new template with different content, learn from why the old one was reported, and point the ' +
        'campaign at the new one once it is approved.',
    },
  },
  {
    code: 132018,
    api: 'cloud',
    name: 'Template parameter validation error',
    messages: ['Template validation error', 'There was an issue with the parameters in your template.'],
    class: 'template_problem',
    surface: 'send_response',
    retry: { kind: 'after_operator_fix' },
    effects: { template: 'review', campaign: 'pause' },
    page: {
      meaning: 'Meta rejected the template parameters during validation (API v23 and later).',
      cause:
        'A parameter value or structure that the template does not allow. The Marketing Messages API reports ' +
        'the same code for the same problem.',
      retry: 'No. Pacer pauses the campaign until the payload is corrected.',
      action: "Read error_data.details for the failing parameter and fix the campaign's variable mapping.",
    },
  },
  {
    code: 132068,
    api: 'cloud',
    name: 'Flow blocked',
    messages: ['Flow is blocked', 'Flow is in blocked state.'],
    class: 'template_problem',
    surface: 'send_response',
    retry: { kind: 'never' },
    effects: { template: 'review', campaign: 'pause' },
    page: {
      meaning: 'The WhatsApp Flow attached to the message is blocked and cannot be sent.',
      cause: 'Meta blocked the Flow, typically for its health (endpoint errors, latency) or its content.',
      retry: 'No. Pacer pauses the campaign that uses it.',
      action: 'Fix the Flow in WhatsApp Manager (check its health metrics and endpoint), then resume.',
    },
  },
  {
    code: 132069,
    api: 'cloud',
    name: 'Flow throttled',
    messages: ['Flow is throttled', 'Flow is in throttled state and 10 messages using this flow were already sent in the last hour.'],
    class: 'template_problem',
    surface: 'send_response',
    retry: { kind: 'never' },
    effects: { template: 'review', campaign: 'pause' },
    page: {
      meaning: 'The Flow is throttled: only ten messages per hour may use it, and that many were already sent.',
      cause: 'Meta throttles a Flow whose health has degraded, short of blocking it.',
      retry:
        'Not right away; the allowance refills over the hour, but ten an hour cannot carry a campaign. Pacer ' +
        'pauses the campaign rather than trickling it.',
      action: "Fix the Flow's health so the throttle lifts, then resume the campaign.",
    },
  },
]);
