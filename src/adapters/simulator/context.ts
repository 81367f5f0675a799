import type { Scheduler } from '../../ports/clock.js';
import type { SimulatorConfig } from './config.js';
import type { GroundTruthLog } from './ground-truth.js';
import type { MediaStore } from './media-store.js';
import type { BusinessNumbers } from './business-numbers.js';
import type { Population } from './population.js';
import type { WebhookDelivery } from './webhook-delivery.js';
import { hash32 } from './prng.js';

/** Ids shaped like Meta's, unique within a run and reproducible from the seed. */
export class IdFactory {
  private outbound = 0;
  private inbound = 0;
  private trace = 0;
  private media = 0;

  constructor(private readonly seed: number) {}

  /** Numeric, 16 digits, like Meta's media ids. */
  mediaId(): string {
    return `${1000 + (hash32(`media:${this.seed}`) % 9000)}${String(++this.media).padStart(12, '0')}`;
  }

  wamid(): string {
    return `wamid.${Buffer.from(`SIM:${this.seed}:OUT:${++this.outbound}`).toString('base64url')}`;
  }

  inboundWamid(): string {
    return `wamid.${Buffer.from(`SIM:${this.seed}:IN:${++this.inbound}`).toString('base64url')}`;
  }

  fbtraceId(): string {
    return `A${Buffer.from(`trace:${this.seed}:${++this.trace}`).toString('base64url').slice(0, 22)}`;
  }
}

/** The simulator's parts, shared by the request handler, the message lifecycle and user reactions. */
export interface SimContext {
  config: SimulatorConfig;
  scheduler: Scheduler;
  population: Population;
  /** The accounts and their numbers, each with its own limits and quality. */
  numbers: BusinessNumbers;
  delivery: WebhookDelivery;
  truth: GroundTruthLog;
  ids: IdFactory;
  /** Files uploaded to the numbers, by media id. */
  media: MediaStore;
}
