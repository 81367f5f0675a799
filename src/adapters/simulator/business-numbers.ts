import type { Millis } from '../../core/time.js';
import type { Scheduler } from '../../ports/clock.js';
import type { SimAccountConfig, SimNumberConfig } from './accounts-config.js';
import type { SimulatorConfig } from './config.js';
import type { NumberIdentity } from './payloads.js';
import { PhoneQuality } from './quality.js';
import { RateLimits } from './rate-limits.js';
import { TemplateQuality, type TemplateState } from './template-quality.js';
import type { WebhookDelivery, WebhookSender } from './webhook-delivery.js';

/** One business number at run time: its own throughput and pair-rate buckets and its own quality. */
export class SimNumber implements WebhookSender {
  readonly who: NumberIdentity;
  readonly appSecret: string;
  readonly quality: PhoneQuality;
  readonly limits: RateLimits;

  constructor(
    readonly account: SimAccount,
    readonly config: SimNumberConfig,
    sim: SimulatorConfig,
    delivery: WebhookDelivery,
    start: Millis,
  ) {
    this.who = { wabaId: account.config.wabaId, phoneNumberId: config.phoneNumberId, displayPhoneNumber: config.displayPhoneNumber };
    this.appSecret = account.config.appSecret;
    this.quality = new PhoneQuality(
      config.qualityRating ?? 'GREEN',
      sim.quality,
      { displayPhoneNumber: config.displayPhoneNumber, messagingLimit: account.config.messagingLimit },
      (event, at) => delivery.emit(event, at, this),
    );
    this.limits = new RateLimits({ ...sim.rateLimits, throughputMps: config.throughputMps }, start);
  }

  /** A message from this number reached its recipient. */
  delivered(template: TemplateState | null, at: Millis): void {
    this.quality.delivered(at);
    template?.feedback.delivered(at);
  }

  /** Blocks (1), reports (2), marketing stops (0.5) count against this number and the template. */
  negative(template: TemplateState | null, at: Millis, weight: number): void {
    this.quality.record(at, weight);
    if (template !== null) this.account.templates.negative(template, at, weight);
    this.quality.evaluate(at);
  }

  /** A signal that only the number's rating sees (retries into a capped user). */
  signal(at: Millis, weight: number): void {
    this.quality.record(at, weight);
    this.quality.evaluate(at);
  }
}

/** One WhatsApp Business Account: its templates and its numbers. */
export class SimAccount implements WebhookSender {
  readonly templates: TemplateQuality;
  readonly numbers: SimNumber[];
  readonly appSecret: string;

  constructor(
    readonly config: SimAccountConfig,
    index: number,
    sim: SimulatorConfig,
    scheduler: Scheduler,
    delivery: WebhookDelivery,
    start: Millis,
  ) {
    this.appSecret = config.appSecret;
    // The first account's template ids stay what they were when there was only one account.
    this.templates = new TemplateQuality(
      sim,
      scheduler,
      (event, at) => delivery.emit(event, at, this),
      index === 0 ? '' : `${config.wabaId}:`,
    );
    this.numbers = config.numbers.map((n) => new SimNumber(this, n, sim, delivery, start));
  }

  /** Account-level webhooks (templates) carry no metadata; the entry names the account. */
  get who(): NumberIdentity {
    return (this.numbers[0] as SimNumber).who;
  }
}

/** Every configured account and number, found by id, and who may reach them with which token. */
export class BusinessNumbers {
  readonly accounts: SimAccount[];
  /** The first account's first number: the one the top-level config fields describe. */
  readonly first: SimNumber;
  private readonly numbersById = new Map<string, SimNumber>();

  constructor(config: SimulatorConfig, scheduler: Scheduler, delivery: WebhookDelivery, start: Millis) {
    this.accounts = config.accounts.map((a, i) => new SimAccount(a, i, config, scheduler, delivery, start));
    for (const n of this.all()) this.numbersById.set(n.config.phoneNumberId, n);
    this.first = (this.accounts[0] as SimAccount).numbers[0] as SimNumber;
  }

  all(): SimNumber[] {
    return this.accounts.flatMap((a) => a.numbers);
  }

  number(phoneNumberId: string): SimNumber | undefined {
    return this.numbersById.get(phoneNumberId);
  }

  account(wabaId: string): SimAccount | undefined {
    return this.accounts.find((a) => a.config.wabaId === wabaId);
  }

  /** The accounts a bearer token reaches; none for a token no account has (190). */
  reachable(token: string): SimAccount[] {
    return this.accounts.filter((a) => a.config.accessToken === token);
  }
}
