import { defineEntries } from './define-entry.js';

/** Failures that describe the recipient's inbox or choices rather than our request or account. */
export const MARKETING_AND_RECIPIENT = defineEntries([
  {
    code: 131049,
    api: 'cloud',
    name: 'Per-user marketing cap',
    messages: [
      'This message was not delivered to maintain healthy ecosystem engagement.',
      'This message was not delivered to maintain a healthy ecosystem engagement.',
      'In order to maintain a healthy ecosystem engagement, the message failed to be delivered.',
      'In order to maintain a healthy ecosystem engagement, the message failed to get delivered.',
    ],
    class: 'per_user_marketing_cap',
    surface: 'status_webhook',
    retry: { kind: 'cap_cool_off' },
    effects: { contact: 'marketing_cool_off', campaign: 'count_cap' },
    page: {
      meaning:
        'WhatsApp kept this marketing template back because the recipient has already been shown as much ' +
        'marketing as WhatsApp is willing to show them for now, counting every business that writes to them. ' +
        'The wording sounds like a verdict on your content or your number; it is neither. The limit lives in ' +
        "the recipient's inbox.",
      cause:
        'Every WhatsApp user has an adaptive ceiling on marketing templates. Meta sets it from how the person ' +
        'has been reading marketing lately and, since March 2025, from how busy their inbox is overall; no ' +
        'number is published. Each delivered marketing template counts, except those sent inside a ' +
        'customer-service window the user opened by writing in. Because other businesses fill the same ' +
        'allowance, the very first message you ever send someone can be refused, while the same template goes ' +
        'through to the next contact. Since 1 April 2025 Meta also returns this code for every marketing ' +
        'template to a +1 (United States) number while its US marketing pause stands. The limit is not applied ' +
        'in the EEA, the UK, Japan, South Korea, Nigeria or South Africa. The report arrives as a failed status ' +
        'webhook after the send call was accepted.',
      retry:
        'Not soon. The limit holds for a period Meta does not disclose and that differs from person to person, ' +
        'so a resend within hours fails the same way and only adds to a record of refused sends. Pacer waits at ' +
        'least 24 hours before the next marketing attempt and lengthens the gap after each further cap (24 h, ' +
        '48 h, 72 h by default; configurable). After a bounded number of attempts the campaign message ends as ' +
        'capped_exhausted. Refused attempts are not billed.',
      action:
        'Pause marketing to this contact only. Utility, authentication and service messages still reach them, ' +
        'and they stay in the audience for the next campaign: do not unsubscribe, suppress or mark them ' +
        'unreachable. When a large share of one campaign comes back with this code, the campaign breaker stops ' +
        'it; send fewer marketing templates to the same people, favour contacts who read and reply, and invite ' +
        'replies, since marketing inside a window the user opened does not count. Do not relabel promotional ' +
        'content as utility to get past it. Claims that the Marketing Messages API avoids the cap are not ' +
        'confirmed by Meta, and the US pause applies there too.',
    },
  },
  {
    code: 130472,
    api: 'cloud',
    name: 'Recipient in marketing experiment',
    messages: [
      "User's number is part of an experiment",
      "Failed to send message because this user's phone number is part of an experiment",
      'Message was not sent as part of an experiment.',
    ],
    class: 'experiment_hold',
    surface: 'status_webhook',
    retry: { kind: 'when_window_opens' },
    effects: { contact: 'marketing_hold_for_window' },
    page: {
      meaning:
        'The recipient belongs to a small test group in which WhatsApp delivers no marketing templates from any ' +
        'business unless a conversation window is already open with that business.',
      cause:
        'Meta runs a standing experiment on how marketing affects people; a very small share of users is placed ' +
        'in it, with no end date and no way for a business to opt out or ask for an exception. Your account and ' +
        'its quality are not involved. The failure comes as a status webhook; nothing is delivered or billed.',
      retry:
        'Sending the same template again gives the same answer for as long as the person stays in the group. ' +
        'It can go through once they write to you: inside the 24-hour customer-service window (or a 72-hour ' +
        'free-entry-point window from an ad) marketing is allowed. Pacer holds the message and wakes it when the ' +
        'contact writes in; a long-quiet hold is probed again only after the configured recheck period.',
      action:
        'Keep sending utility, authentication and service messages as usual. If the marketing message matters, ' +
        'ask the customer through another channel (email, SMS, phone) to message your WhatsApp number, then ' +
        'reply inside the window that opens.',
    },
  },
  {
    code: 131050,
    api: 'cloud',
    name: 'User stopped marketing',
    messages: [
      'Unable to deliver the message. This recipient has chosen to stop receiving marketing messages on WhatsApp from your business',
    ],
    class: 'user_stopped_marketing',
    surface: 'status_webhook',
    retry: { kind: 'never' },
    effects: { contact: 'marketing_stopped' },
    page: {
      meaning:
        'The recipient used WhatsApp\'s own "Offers and announcements" setting to turn off marketing from your ' +
        'business. WhatsApp accepted the send call and then dropped the message.',
      cause:
        'A choice the person made in the app, specific to your business. A user_preferences webhook with the ' +
        'value "stop" is sent at the same moment; Pacer treats either signal as the same opt-out.',
      retry:
        'Never, not until the person turns marketing back on. Further marketing templates are refused the same ' +
        'way, and repeatedly sending them to someone who said no is what drags quality down.',
      action:
        'Nothing to fix on your side. Pacer stops marketing to the contact and keeps utility, authentication and ' +
        'service messages flowing. Marketing resumes only when a user_preferences "resume" webhook arrives or ' +
        'the contact opts in again through a channel you record as consent.',
    },
  },
  {
    code: 131026,
    api: 'cloud',
    name: 'Message undeliverable',
    messages: [
      'Message Undeliverable',
      'Unable to deliver message.',
      'Unable to deliver message. Reasons can include: The recipient phone number is not a WhatsApp phone number. ' +
        'The recipient has not accepted our new Terms of Service and Privacy Policy. The recipient is using an old ' +
        'WhatsApp version.',
      'Recipient using an outdated WhatsApp client.',
    ],
    class: 'recipient_undeliverable',
    surface: 'both',
    retry: { kind: 'never' },
    effects: { contact: 'unreachable' },
    page: {
      meaning: 'WhatsApp could not hand this message to the number at all, whatever its category.',
      cause:
        'Usually the number has no WhatsApp account. It also happens when the person has not accepted the ' +
        'current WhatsApp terms, or runs a client too old to receive business messages (older than Android or ' +
        'SMBA 2.21.15.15, iOS or SMBI 2.21.170.4, KaiOS 2.2130.10, Web 2.2132.6). In 2023, before 131049 ' +
        'existed, Meta also reported the per-user marketing limit with this code; today that has its own code.',
      retry:
        "Not to the same number in the short term: the cause is on the recipient's device or account and does " +
        'not change by itself within hours. Pacer marks the contact unreachable for every category and probes it ' +
        'again only after a long quiet period (30 days by default) or as soon as the person writes in.',
      action:
        'Check that the stored number is right (country code, no trunk zero). If it is, reach the person through ' +
        'another channel and ask them to update WhatsApp or accept its terms. Keep such contacts out of ' +
        'campaign counts so they do not skew delivery rates.',
    },
  },
]);
