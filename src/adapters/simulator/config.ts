import { DAY, HOUR, SECOND, type Millis } from '../../core/time.js';
import type { JsonValue } from '../../ports/json.js';
import { derivedAccount, type SimAccountConfig } from './accounts-config.js';
import type { CountryCode } from './countries.js';

export type TemplateCategory = 'MARKETING' | 'UTILITY' | 'AUTHENTICATION';

export interface SimTemplateConfig {
  name: string;
  language: string;
  category: TemplateCategory;
  /** How interesting recipients find it, 0..1: drives reads, replies, stop taps, blocks and reports. */
  relevance: number;
  /** Meta's `components` as the template API lists them; a plain text body when left out. */
  components?: JsonValue[];
  parameterFormat?: 'POSITIONAL' | 'NAMED';
  subCategory?: string;
  messageSendTtlSeconds?: number;
}

/**
 * Local hours `fromHour` (inclusive) to `toHour` (exclusive), across midnight when `fromHour >
 * toHour`; equal hours mean no night. Night hours count `1 / readDelayFactor` towards the delays
 * to a read and to a reply (the user is mostly asleep), and marketing delivered at night is
 * blocked and reported `blockFactor` and `reportFactor` times as often.
 */
export interface NightReactions {
  fromHour: number;
  toHour: number;
  readDelayFactor: number;
  blockFactor: number;
  reportFactor: number;
}

export interface Range {
  min: number;
  max: number;
}

/**
 * Every knob of the simulator in one object; `docs/simulator.md` explains each. Numbers Meta does
 * not publish (cap sizes, reaction rates, quality thresholds) are modelling choices, not facts.
 */
export interface SimulatorConfig {
  seed: number;
  host: string;
  /** 0 picks a free port. */
  port: number;
  /** Bearer token of the first account (`accounts[0].accessToken`). */
  accessToken: string;
  /** Key for `X-Hub-Signature-256` on the first account's webhooks (`accounts[0].appSecret`). */
  appSecret: string;
  /** Where webhooks go; null keeps them in ground truth only. */
  callbackUrl: string | null;
  /** The first account's WABA id and its first number (`accounts[0]`, `accounts[0].numbers[0]`). */
  wabaId: string;
  phoneNumberId: string;
  displayPhoneNumber: string;
  /**
   * Every WhatsApp Business Account and its numbers. Without it, one account with one number is
   * derived from the fields above (and `rateLimits.throughputMps`, `quality.messagingTier`).
   */
  accounts: SimAccountConfig[];
  templates: SimTemplateConfig[];
  population: {
    size: number;
    /** Relative share of users per country. */
    countries: Partial<Record<CountryCode, number>>;
    /**
     * `drawn`: each user's country is drawn from the weights, so a small population strays from them.
     * `exact`: the counts are the weights' shares of the size (largest remainders), in a seeded order.
     */
    countryMix: 'drawn' | 'exact';
    notOnWhatsAppRate: number;
    /** Meta's marketing experiment group (130472). */
    experimentRate: number;
    /** Users who had already stopped our marketing before the run (131050, no webhook). */
    stoppedRate: number;
    readPropensity: Range;
    replyPropensity: Range;
    /** Marketing per day each user receives from other businesses (shares the per-user cap). */
    otherMarketingPerDay: Range;
    /** Users who hide their number behind a username: webhooks name them by business-scoped id alone. */
    usernameRate: number;
    /**
     * How webhooks write a withheld number: `omitted` (Meta since February 2026) or `empty`, the `""`
     * Meta documented before (`wa_id`, `from`, `recipient_id`).
     */
    withheldPhone: 'omitted' | 'empty';
  };
  cap: {
    /** Rolling window over which delivered marketing (from every business) is counted. */
    windowMs: Millis;
    /** Cap for a user who reads nothing / reads everything; the cap scales with read propensity. */
    minPerWindow: number;
    maxPerWindow: number;
    /** After a cap, marketing from us fails for this long, and each retry inside it starts it again. */
    retryPenaltyMs: Millis;
    /** ISO regions without per-user caps (EEA, UK, JP, KR, NG, ZA). */
    uncappedRegions: string[];
    /** Meta's pause of marketing templates to US (+1) numbers. */
    usMarketingPause: boolean;
  };
  rateLimits: {
    /** Pair rate: one message per this many ms to one user... */
    pairIntervalMs: Millis;
    /** ...with bursts borrowing up to this many. */
    pairBurst: number;
    /** Messages per second of the first number (`accounts[0].numbers[0].throughputMps`). */
    throughputMps: number;
  };
  reactions: {
    sentDelayMs: Range;
    deliveredDelayMs: Range;
    readDelayMs: Range;
    replyDelayMs: Range;
    /** Share of reads where the user was in the chat, so only `read` is reported. */
    skipDeliveredRate: number;
    /** Base chance per delivered marketing message, scaled by irrelevance, frequency and annoyance. */
    stopTapRate: number;
    preferenceStopRate: number;
    blockRate: number;
    reportRate: number;
    /** Chance that a user who stopped marketing resumes later, and the mean delay. */
    resumeRate: number;
    resumeMeanDelayMs: Millis;
    /** Each marketing message from us within this window beyond the first multiplies negative reactions. */
    frequencyWindowMs: Millis;
    frequencyFactor: number;
    /** Annoyance each marketing attempt inside a cap penalty adds for that user. */
    capRetryAnnoyance: number;
    /** Night at the recipient, in their own zone's hours: what a message arriving then does. */
    night: NightReactions;
    /**
     * Phones that are off when a message comes: this share of messages waits for the phone to come
     * back, after a delay in `forMs`, and Meta drops one it cannot deliver within its time-to-live.
     */
    offline: { rate: number; forMs: Range };
  };
  quality: {
    windowMs: Millis;
    /** Negative weight: block 1, report 2, preference stop 0.5; a retry into a cap counts this much. */
    capRetrySignal: number;
    minSample: number;
    yellowAt: number;
    redAt: number;
    template: { minSample: number; yellowAt: number; redAt: number; pauseMs: Millis[] };
    /** The first account's portfolio messaging limit (`accounts[0].messagingLimit`). */
    messagingTier: string;
  };
  webhooks: {
    latencyMs: Range;
    /** Chance that a status rides along in the POST of an earlier one. */
    batchRate: number;
    maxBatch: number;
    duplicateRate: number;
    /** Chance that a status is held back long enough for a later one to overtake it. */
    outOfOrderRate: number;
    retryBaseMs: Millis;
    retryMaxMs: Millis;
    /** Meta keeps retrying a failing endpoint for up to 7 days. */
    retryForMs: Millis;
    /** Time to wait for the endpoint's answer (real time). */
    requestTimeoutMs: Millis;
  };
}

export const UNCAPPED_REGIONS = [
  'AT',
  'BE',
  'BG',
  'HR',
  'CY',
  'CZ',
  'DK',
  'EE',
  'FI',
  'FR',
  'DE',
  'GR',
  'HU',
  'IE',
  'IT',
  'LV',
  'LT',
  'LU',
  'MT',
  'NL',
  'PL',
  'PT',
  'RO',
  'SK',
  'SI',
  'ES',
  'SE',
  'IS',
  'LI',
  'NO',
  'GB',
  'JP',
  'KR',
  'NG',
  'ZA',
];

const FIRST_NUMBER = {
  accessToken: 'sim-access-token',
  appSecret: 'sim-app-secret',
  wabaId: '100200300400500',
  phoneNumberId: '106540352242922',
  displayPhoneNumber: '15550783881',
} as const;

export const DEFAULT_SIMULATOR_CONFIG: SimulatorConfig = {
  seed: 1,
  host: '127.0.0.1',
  port: 0,
  accessToken: FIRST_NUMBER.accessToken,
  appSecret: FIRST_NUMBER.appSecret,
  callbackUrl: null,
  wabaId: FIRST_NUMBER.wabaId,
  phoneNumberId: FIRST_NUMBER.phoneNumberId,
  displayPhoneNumber: FIRST_NUMBER.displayPhoneNumber,
  accounts: [derivedAccount(FIRST_NUMBER, 80, 'TIER_2K')],
  templates: [
    {
      name: 'spring_sale',
      language: 'en_US',
      category: 'MARKETING',
      relevance: 0.5,
      subCategory: 'CUSTOM',
      components: [
        { type: 'HEADER', format: 'IMAGE', example: { header_handle: ['https://scontent.example/spring-sale.jpg'] } },
        {
          type: 'BODY',
          text: 'Hi {{1}}, our spring sale is on: {{2}} off everything until Sunday.',
          example: { body_text: [['Ada', '20%']] },
        },
        { type: 'FOOTER', text: 'Tap Stop promotions to opt out' },
        {
          type: 'BUTTONS',
          buttons: [
            {
              type: 'URL',
              text: 'Shop now',
              url: 'https://shop.example.com/spring/{{1}}',
              example: ['https://shop.example.com/spring/ada'],
            },
            { type: 'QUICK_REPLY', text: 'Stop promotions' },
          ],
        },
      ],
    },
    {
      name: 'order_update',
      language: 'en_US',
      category: 'UTILITY',
      relevance: 0.9,
      parameterFormat: 'NAMED',
      components: [
        {
          type: 'HEADER',
          format: 'TEXT',
          text: 'Order {{order_id}}',
          example: { header_text_named_params: [{ param_name: 'order_id', example: 'A-1001' }] },
        },
        {
          type: 'BODY',
          text: 'Hi {{first_name}}, your order {{order_id}} is {{order_status}}.',
          example: {
            body_text_named_params: [
              { param_name: 'first_name', example: 'Ada' },
              { param_name: 'order_id', example: 'A-1001' },
              { param_name: 'order_status', example: 'on its way' },
            ],
          },
        },
        {
          type: 'BUTTONS',
          buttons: [
            { type: 'URL', text: 'Track', url: 'https://shop.example.com/track/{{1}}', example: ['https://shop.example.com/track/A-1001'] },
          ],
        },
      ],
    },
    {
      name: 'login_code',
      language: 'en_US',
      category: 'AUTHENTICATION',
      relevance: 1,
      messageSendTtlSeconds: 600,
      components: [
        { type: 'BODY', text: '*{{1}}* is your verification code.', add_security_recommendation: true },
        { type: 'FOOTER', text: 'This code expires in 10 minutes.', code_expiration_minutes: 10 },
        {
          type: 'BUTTONS',
          buttons: [
            {
              type: 'URL',
              text: 'Copy code',
              url: 'https://www.whatsapp.com/otp/code/?otp_type=COPY_CODE&code=otp{{1}}',
              example: ['https://www.whatsapp.com/otp/code/?otp_type=COPY_CODE&code=otp123456'],
            },
          ],
        },
      ],
    },
  ],
  population: {
    size: 1000,
    countries: { US: 10, GB: 8, DE: 8, ES: 4, IN: 20, BR: 16, ID: 12, MX: 10, NG: 6, ZA: 3, JP: 2, KR: 1 },
    countryMix: 'drawn',
    notOnWhatsAppRate: 0.02,
    experimentRate: 0.01,
    stoppedRate: 0.01,
    readPropensity: { min: 0.05, max: 0.95 },
    replyPropensity: { min: 0, max: 0.2 },
    otherMarketingPerDay: { min: 0.2, max: 3 },
    usernameRate: 0,
    withheldPhone: 'omitted',
  },
  cap: {
    windowMs: DAY,
    minPerWindow: 1,
    maxPerWindow: 4,
    retryPenaltyMs: DAY,
    uncappedRegions: UNCAPPED_REGIONS,
    usMarketingPause: true,
  },
  rateLimits: { pairIntervalMs: 6 * SECOND, pairBurst: 45, throughputMps: 80 },
  reactions: {
    sentDelayMs: { min: 200, max: 3 * SECOND },
    deliveredDelayMs: { min: SECOND, max: 2 * HOUR },
    readDelayMs: { min: 5 * SECOND, max: 12 * HOUR },
    replyDelayMs: { min: 10 * SECOND, max: HOUR },
    skipDeliveredRate: 0.1,
    stopTapRate: 0.02,
    preferenceStopRate: 0.004,
    blockRate: 0.004,
    reportRate: 0.001,
    resumeRate: 0.1,
    resumeMeanDelayMs: 20 * DAY,
    frequencyWindowMs: 7 * DAY,
    frequencyFactor: 0.6,
    capRetryAnnoyance: 0.5,
    // Modelling choices, not Meta's numbers: the quiet hours many senders keep, a noticeable but modest effect.
    night: { fromHour: 21, toHour: 8, readDelayFactor: 4, blockFactor: 1.5, reportFactor: 2 },
    // Off by default: the delivery delay above already covers phones that are briefly away.
    offline: { rate: 0, forMs: { min: HOUR, max: 3 * DAY } },
  },
  quality: {
    windowMs: 7 * DAY,
    capRetrySignal: 0.25,
    minSample: 100,
    yellowAt: 0.02,
    redAt: 0.05,
    template: { minSample: 30, yellowAt: 0.04, redAt: 0.1, pauseMs: [3 * HOUR, 6 * HOUR] },
    messagingTier: 'TIER_2K',
  },
  webhooks: {
    latencyMs: { min: 50, max: 1500 },
    batchRate: 0.3,
    maxBatch: 10,
    duplicateRate: 0.02,
    outOfOrderRate: 0.05,
    retryBaseMs: 10 * SECOND,
    retryMaxMs: HOUR,
    retryForMs: 7 * DAY,
    requestTimeoutMs: 10 * SECOND,
  },
};

type DeepPartial<T> = T extends readonly unknown[] ? T : T extends object ? { [K in keyof T]?: DeepPartial<T[K]> } : T;
export type SimulatorConfigInput = DeepPartial<SimulatorConfig>;
