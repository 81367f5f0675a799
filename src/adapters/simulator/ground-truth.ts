import type { Millis } from '../../core/time.js';
import type { BusinessNumbers } from './business-numbers.js';
import { summariseDeliveryTiming, type DeliveryTiming } from './delivery-timing.js';
import type { NightHours } from './local-time.js';
import type { Rating } from './quality.js';
import type { TemplateState } from './template-quality.js';
import type { DeliveryStats } from './webhook-delivery.js';

export type SimCategory = 'marketing' | 'utility' | 'authentication' | 'service';

/** What the recipient reads (reference §2.2): the header, the body with its values in, the footer, the buttons. */
export interface Rendered {
  /** Text with its value in, or the media as `[image https://…]` / `[image id …]`; null without a header. */
  header: string | null;
  body: string;
  footer: string | null;
  /** Each button's label; URL buttons as `label → full URL`, code buttons as `label → code`. */
  buttons: string[];
}

/** What really happened to one accepted message, whatever the webhooks said or failed to say. */
export interface MessageTruth {
  wamid: string;
  /** The number it was sent from, and that number's account. */
  phoneNumberId: string;
  wabaId: string;
  /** Our id, from `biz_opaque_callback_data`. */
  messageId: string | null;
  /** wa_id (or the number as sent, when no such user exists). */
  to: string;
  /** Whether the send named a phone number (`to`) or only a business-scoped id (`recipient`). */
  addressedBy: 'phone' | 'user_id';
  category: SimCategory;
  template: string | null;
  endpoint: 'messages' | 'marketing_messages';
  acceptedAt: Millis;
  /**
   * The first request the simulator received for this recipient and template since that template
   * last reached them: a retry, or a try refused at once, keeps the first one's time.
   */
  firstRequestAt: Millis;
  /** The recipient's IANA time zone (null when no such user exists). */
  timeZone: string | null;
  /** `expired`: Meta could not deliver it within its time-to-live and dropped it (only `sent` was reported). */
  status: 'accepted' | 'sent' | 'delivered' | 'read' | 'failed' | 'expired';
  errorCode: number | null;
  deliveredAt: Millis | null;
  /** The hour (0–23) on the recipient's clock when it was delivered. */
  deliveredLocalHour: number | null;
  readAt: Millis | null;
  /** What the message shows on the recipient's phone, as the send filled it in. */
  rendered: Rendered;
}

export interface ReactionCounts {
  replies: number;
  stopTaps: number;
  preferenceStops: number;
  resumes: number;
  blocks: number;
  reports: number;
}

export interface TemplateTruth {
  name: string;
  language: string;
  category: string;
  quality: Rating;
  status: string;
  pauses: number;
}

export interface NumberTruth {
  wabaId: string;
  phoneNumberId: string;
  displayPhoneNumber: string;
  qualityRating: Rating;
  /** The worst rating it had during the run. */
  lowestQualityRating: Rating;
  /** Messages the number's API took. */
  accepted: number;
}

export interface GroundTruth {
  /** The first number's rating and the first account's templates (`numbers` and `accounts` have all). */
  qualityRating: Rating;
  /** The first number's worst rating during the run. */
  lowestQualityRating: Rating;
  templates: TemplateTruth[];
  numbers: NumberTruth[];
  accounts: Array<{ wabaId: string; templates: TemplateTruth[] }>;
  messages: MessageTruth[];
  /** How many of our messages were really delivered to each wa_id. */
  deliveredTo: Record<string, number>;
  requests: number;
  accepted: number;
  syncErrors: Record<string, number>;
  asyncFailures: Record<string, number>;
  reactions: ReactionCounts;
  /** Delivered messages at the recipient's night and more than 24 h after first asked for. */
  deliveryTiming: DeliveryTiming;
  webhooks: DeliveryStats;
}

export class GroundTruthLog {
  readonly messages = new Map<string, MessageTruth>();
  readonly syncErrors = new Map<number, number>();
  readonly asyncFailures = new Map<number, number>();
  readonly reactions: ReactionCounts = { replies: 0, stopTaps: 0, preferenceStops: 0, resumes: 0, blocks: 0, reports: 0 };
  requests = 0;
  /** Per recipient and template, when the first request not yet followed by a delivery came. */
  private readonly firstRequests = new Map<string, Millis>();

  /** Notes a request for `template` to `recipient`; returns when the first request of its run came. */
  requested(recipient: string, template: string | null, at: Millis): Millis {
    const key = requestKey(recipient, template);
    const first = this.firstRequests.get(key);
    if (first !== undefined) return first;
    this.firstRequests.set(key, at);
    return at;
  }

  /** The message reached its recipient: the next request for the same template starts a new run. */
  delivered(message: MessageTruth, at: Millis, localHour: number | null): void {
    message.status = 'delivered';
    message.deliveredAt = at;
    message.deliveredLocalHour = localHour;
    const key = requestKey(message.to, message.template);
    if (this.firstRequests.get(key) === message.firstRequestAt) this.firstRequests.delete(key);
  }

  syncError(code: number): void {
    this.syncErrors.set(code, (this.syncErrors.get(code) ?? 0) + 1);
  }

  failed(message: MessageTruth, code: number): void {
    message.status = 'failed';
    message.errorCode = code;
    this.asyncFailures.set(code, (this.asyncFailures.get(code) ?? 0) + 1);
  }

  snapshot(numbers: BusinessNumbers, webhooks: DeliveryStats, night: NightHours): GroundTruth {
    const deliveredTo: Record<string, number> = {};
    const acceptedBy = new Map<string, number>();
    for (const m of this.messages.values()) {
      if (m.deliveredAt !== null) deliveredTo[m.to] = (deliveredTo[m.to] ?? 0) + 1;
      acceptedBy.set(m.phoneNumberId, (acceptedBy.get(m.phoneNumberId) ?? 0) + 1);
    }
    const accounts = numbers.accounts.map((a) => ({ wabaId: a.config.wabaId, templates: a.templates.templates.map(templateTruth) }));
    return {
      qualityRating: numbers.first.quality.rating,
      lowestQualityRating: numbers.first.quality.lowest,
      templates: accounts[0]?.templates ?? [],
      numbers: numbers.all().map((n) => ({
        ...n.who,
        qualityRating: n.quality.rating,
        lowestQualityRating: n.quality.lowest,
        accepted: acceptedBy.get(n.who.phoneNumberId) ?? 0,
      })),
      accounts,
      messages: [...this.messages.values()].map((m) => ({ ...m, rendered: { ...m.rendered, buttons: [...m.rendered.buttons] } })),
      deliveredTo,
      requests: this.requests,
      accepted: this.messages.size,
      syncErrors: Object.fromEntries(this.syncErrors),
      asyncFailures: Object.fromEntries(this.asyncFailures),
      reactions: { ...this.reactions },
      deliveryTiming: summariseDeliveryTiming(this.messages.values(), night),
      webhooks: { ...webhooks, failures: { ...webhooks.failures } },
    };
  }
}

function requestKey(recipient: string, template: string | null): string {
  return `${recipient} ${template ?? ''}`;
}

function templateTruth(t: TemplateState): TemplateTruth {
  return {
    name: t.config.name,
    language: t.config.language,
    category: t.config.category,
    quality: t.quality,
    status: t.status,
    pauses: t.pauses,
  };
}
