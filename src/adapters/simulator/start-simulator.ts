import { systemClock, VirtualClock, type Scheduler } from '../../ports/clock.js';
import { BusinessNumbers, type SimAccount, type SimNumber } from './business-numbers.js';
import type { SimulatorConfig, SimulatorConfigInput } from './config.js';
import { resolveSimulatorConfig } from './resolve-config.js';
import { IdFactory, type SimContext } from './context.js';
import type { Fault } from './faults.js';
import { Faults } from './faults.js';
import { GroundTruthLog, type GroundTruth } from './ground-truth.js';
import { startHttpServer } from './http-server.js';
import { MediaStore } from './media-store.js';
import { generatePopulation, maskPhone, type SimUser } from './population.js';
import { hash32, Prng } from './prng.js';
import type { JsonValue } from '../../ports/json.js';
import type { TemplateCategory } from './config.js';
import { editTemplate, recategoriseTemplate, removeTemplate } from './template-api.js';
import { setMarketingPreference, userWrites } from './user-actions.js';
import { WebhookDelivery } from './webhook-delivery.js';

export interface Simulator {
  /** Base URL for the Cloud API client (`{url}/{version}/{phone-number-id}/messages`). */
  url: string;
  config: SimulatorConfig;
  clock: Scheduler;
  /** The generated users, in index order (phones, countries, traits, live state). */
  users: readonly SimUser[];
  /** Moves virtual time on, running everything due and awaiting webhook deliveries. */
  advance(ms: number): Promise<void>;
  groundTruth(): GroundTruth;
  faults: {
    inject(fault: Fault, options?: { count?: number; forMs?: number }): void;
    clear(): void;
    /** Resolves once `n` requests have been held by `timeout` faults. */
    whenHeld(n?: number): Promise<void>;
    /** Drops the connection of every request held so far (the client sees a reset). */
    releaseHeld(): void;
  };
  /**
   * Things a user does on their phone, on demand (each posts Meta's webhook). `to` is the phone
   * number id the user writes to (or whose business they stop); the first number when left out.
   */
  act: {
    writes(phone: string, text?: string, to?: string): void;
    stopsMarketing(phone: string, to?: string): void;
    resumesMarketing(phone: string, to?: string): void;
  };
  /**
   * Changes to an account's templates, on demand (each posts Meta's webhook for it); `wabaId` picks
   * the account, the first when left out.
   */
  templates: {
    recategorise(name: string, language: string, category: TemplateCategory, wabaId?: string): void;
    edit(name: string, language: string, components: JsonValue[], wabaId?: string): void;
    remove(name: string, language: string, wabaId?: string): void;
  };
  stop(): Promise<void>;
}

/**
 * Starts an in-process Cloud API simulator on loopback. Everything random derives from
 * `config.seed`; time comes from `options.clock` (real time by default, or a `VirtualClock`).
 */
export async function startSimulator(input: SimulatorConfigInput = {}, options: { clock?: Scheduler } = {}): Promise<Simulator> {
  const config = resolveSimulatorConfig(input);
  const clock = options.clock ?? systemClock;
  const start = clock.now();
  const delivery = new WebhookDelivery(clock, new Prng(hash32(`${config.seed}:webhooks`)), config.webhooks, config.callbackUrl);
  const numbers = new BusinessNumbers(config, clock, delivery, start);
  const ctx: SimContext = {
    config,
    scheduler: clock,
    population: generatePopulation(config, start),
    numbers,
    delivery,
    truth: new GroundTruthLog(),
    ids: new IdFactory(config.seed),
    media: new MediaStore(),
  };
  const faults = new Faults();
  const server = await startHttpServer(ctx, faults);

  const userByPhone = (phone: string): SimUser => {
    const user = ctx.population.byPhone(phone.replace(/[^0-9]/g, ''));
    if (user === undefined) throw new Error(`simulator: no user with number ${maskPhone(phone)}`);
    return user;
  };
  const numberById = (id: string | undefined): SimNumber => {
    const found = id === undefined ? numbers.first : numbers.number(id);
    if (found === undefined) throw new Error(`simulator: no business number ${id ?? ''}`);
    return found;
  };
  const accountById = (wabaId: string | undefined): SimAccount => {
    const found = wabaId === undefined ? numbers.first.account : numbers.account(wabaId);
    if (found === undefined) throw new Error(`simulator: no business account ${wabaId ?? ''}`);
    return found;
  };

  return {
    url: server.url,
    config,
    clock,
    users: ctx.population.users,
    advance(ms) {
      if (!(clock instanceof VirtualClock)) throw new Error('simulator: advance() needs a VirtualClock');
      return clock.advance(ms);
    },
    groundTruth: () => ctx.truth.snapshot(numbers, delivery.stats, config.reactions.night),
    faults: {
      inject: (fault, opts) => faults.inject(fault, opts, clock.now()),
      clear: () => faults.clear(),
      whenHeld: (n) => faults.whenHeld(n),
      releaseHeld: () => faults.releaseHeld(),
    },
    act: {
      writes: (phone, text, to) => userWrites(ctx, numberById(to), userByPhone(phone), clock.now(), text),
      stopsMarketing: (phone, to) => setMarketingPreference(ctx, numberById(to), userByPhone(phone), clock.now(), 'stop'),
      resumesMarketing: (phone, to) => setMarketingPreference(ctx, numberById(to), userByPhone(phone), clock.now(), 'resume'),
    },
    templates: {
      recategorise: (name, language, category, wabaId) =>
        recategoriseTemplate(ctx, accountById(wabaId), name, language, category, clock.now()),
      edit: (name, language, components, wabaId) => editTemplate(ctx, accountById(wabaId), name, language, components, clock.now()),
      remove: (name, language, wabaId) => removeTemplate(ctx, accountById(wabaId), name, language, clock.now()),
    },
    async stop() {
      faults.releaseHeld();
      await server.close();
      await delivery.stop();
    },
  };
}
