import { assertNever } from '../error-class.js';
import type { CampaignEffect, ContactEffect, ErrorApi, ErrorSurface, RetryRule, SenderEffect, TemplateEffect } from '../error-entry.js';

/** Plain-English labels for the fields of an entry, shared by the generated docs and the CLI. */
export function describeApi(api: ErrorApi): string {
  switch (api) {
    case 'cloud':
      return 'Cloud API';
    case 'marketing_messages':
      return 'Marketing Messages API';
    case 'on_premises':
      return 'On-Premises API (sunset)';
    case 'graph':
      return 'Graph API (any endpoint)';
    default:
      return assertNever(api, 'error api');
  }
}

export function describeSurface(surface: ErrorSurface): string {
  switch (surface) {
    case 'send_response':
      return 'In the HTTP response to the send';
    case 'status_webhook':
      return 'In a failed status webhook, after the send was accepted';
    case 'both':
      return 'In the send response or in a failed status webhook';
    case 'inbound_webhook':
      return 'On an inbound message webhook';
    default:
      return assertNever(surface, 'error surface');
  }
}

export function describeRetry(retry: RetryRule): string {
  switch (retry.kind) {
    case 'never':
      return 'Never: the same request fails the same way';
    case 'cap_cool_off':
      return 'After the per-user marketing cool-off (at least 24 h, growing gaps, bounded attempts)';
    case 'when_window_opens':
      return 'Only once the contact writes in and a conversation window is open';
    case 'backoff':
      switch (retry.schedule) {
        case 'transient':
          return 'Yes, with exponential backoff (transient schedule)';
        case 'pair_rate':
          return 'Yes, after backing off for this recipient (pair-rate schedule)';
        case 'sender_throttle':
          return 'Yes, after slowing the whole sender (sender backoff)';
        default:
          return assertNever(retry.schedule, 'backoff schedule');
      }
    case 'after_operator_fix':
      return 'After a person fixes the cause';
    case 'reroute_cloud':
      return 'At once, through the Cloud API /messages path';
    default:
      return assertNever(retry, 'retry rule');
  }
}

export function describeContactEffect(effect: ContactEffect): string {
  switch (effect) {
    case 'none':
      return 'None';
    case 'marketing_cool_off':
      return 'Marketing cools off; other categories unaffected';
    case 'marketing_hold_for_window':
      return 'Marketing held until the contact opens a window';
    case 'marketing_stopped':
      return 'Marketing stopped until the contact resumes';
    case 'unreachable':
      return 'Unreachable for every category until a long quiet period passes or they write in';
    default:
      return assertNever(effect, 'contact effect');
  }
}

export function describeTemplateEffect(effect: TemplateEffect): string {
  switch (effect) {
    case 'none':
      return 'None';
    case 'pause':
      return 'Template marked paused';
    case 'disable':
      return 'Template marked disabled';
    case 'review':
      return 'Template flagged for review: shown as unknown (no longer approved) until Meta confirms its status';
    default:
      return assertNever(effect, 'template effect');
  }
}

export function describeSenderEffect(effect: SenderEffect): string {
  switch (effect) {
    case 'none':
      return 'None';
    case 'throttle':
      return 'Sender slowed down';
    case 'stop':
      return 'Sender stopped until an operator resumes it';
    default:
      return assertNever(effect, 'sender effect');
  }
}

export function describeCampaignEffect(effect: CampaignEffect): string {
  switch (effect) {
    case 'none':
      return 'None';
    case 'count_cap':
      return "Counted toward the campaign's cap breaker";
    case 'pause':
      return 'Campaign paused';
    default:
      return assertNever(effect, 'campaign effect');
  }
}
