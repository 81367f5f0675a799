import type { CapSchedulePreset } from '../../core/policy.js';
import { DAY, HOUR, type Millis } from '../../core/time.js';

/**
 * A peer's way of handling failed sends, as its own documentation describes it: data the one peer
 * world runs, so every peer lives through the same simulated week and only this differs.
 */
export interface PeerStrategy {
  kind: 'peer';
  name: string;
  /** What it does, in a line, for the terminal and the report. */
  describes: string;
  /** Where the behaviour is documented. */
  source: string;
  /** Wait before each resend of a failed message, counted from the failure; its length is how many resends a message gets. */
  retryAfterMs: readonly Millis[];
  /** A message that failed with no resend left: give up on the contact for good, or on that message only. */
  whenOutOfRetries: 'suppress-contact' | 'drop-message';
  /** Failure codes read as a bounce: the contact is suppressed for good at once, for every category. */
  bounceCodes: readonly number[];
  /** On a wave of `code` failures the campaign (not order updates) stops sending for a while. */
  campaignPause: CampaignPause | null;
}

export interface CampaignPause {
  code: number;
  /** A wave: at least `share` of the campaign's last `window` outcomes failed with `code`. */
  window: number;
  share: number;
  /** How long each pause lasts, the first, second, …; the last repeats. */
  pauseMs: readonly Millis[];
  /** After a pause, each message that failed with `code` is sent once more. */
  resendFailed: boolean;
}

/** Pacer itself, with its default policy or one of its cap-retry presets. */
export interface PacerStrategy {
  kind: 'pacer';
  name: string;
  describes: string;
  source: string;
  preset: CapSchedulePreset | null;
}

export type Strategy = PeerStrategy | PacerStrategy;

const peer = (s: Omit<PeerStrategy, 'kind'>): PeerStrategy => ({ kind: 'peer', ...s });

export const STRATEGIES: readonly Strategy[] = [
  {
    kind: 'pacer',
    name: 'pacer',
    describes: "Pacer's default policy: a 131049 is retried after 24, 48 and 72 h; nobody is dropped for a cap",
    source: 'this project (README: policy)',
    preset: null,
  },
  {
    kind: 'pacer',
    name: 'pacer-12h',
    describes: 'Pacer with the 12h cap-retry preset: a 131049 is retried every 12 h, three tries a message',
    source: 'this project (policy preset 12h)',
    preset: '12h',
  },
  peer({
    name: 'resend-at-once-drop-after-2',
    describes: 'resend every failure at once, drop whoever fails twice more',
    source: 'a common home-grown sender (the earlier demo)',
    retryAfterMs: [0, 0],
    whenOutOfRetries: 'suppress-contact',
    bounceCodes: [],
    campaignPause: null,
  }),
  peer({
    name: 'send-once',
    describes: 'send each message once, never retry',
    source: 'a common open-source campaign loop',
    retryAfterMs: [],
    whenOutOfRetries: 'drop-message',
    bounceCodes: [],
    campaignPause: null,
  }),
  peer({
    name: 'retry-12-24-48h',
    describes: 'retry a failure after 12 h, then 24 h, then 48 h',
    source: 'a vendor’s guide to 131049 ("First retry: after 12 hours … Third retry: after 48 hours")',
    retryAfterMs: [12 * HOUR, 24 * HOUR, 48 * HOUR],
    whenOutOfRetries: 'drop-message',
    bounceCodes: [],
    campaignPause: null,
  }),
  peer({
    name: 'retry-daily-7d',
    describes: 'retry a failure once a day for up to 7 days',
    source: 'two Indian BSPs’ retry settings',
    retryAfterMs: Array.from({ length: 7 }, () => DAY),
    whenOutOfRetries: 'drop-message',
    bounceCodes: [],
    campaignPause: null,
  }),
  peer({
    name: 'bounce-blacklist',
    describes: 'treat 131049 as a bounce: blacklist the number for good, order updates included',
    source: "an ERP's WhatsApp module",
    retryAfterMs: [],
    whenOutOfRetries: 'drop-message',
    bounceCodes: [131049],
    campaignPause: null,
  }),
  peer({
    name: 'pause-campaign-24-48h',
    describes: 'on a 131049 wave pause the whole campaign 24 h (48 h the next times), then resend the failed once',
    source: 'a BSP’s help page on 131049 ("Pause Active Campaigns Immediately … Wait 24 to 48 Hours")',
    retryAfterMs: [],
    whenOutOfRetries: 'drop-message',
    bounceCodes: [],
    campaignPause: { code: 131049, window: 100, share: 0.05, pauseMs: [DAY, 2 * DAY], resendFailed: true },
  }),
];

/** The demo's default set: the four that teach most, so it stays quick on two cores (`--strategies all` runs every one). */
export const DEMO_STRATEGIES: readonly string[] = ['pacer', 'resend-at-once-drop-after-2', 'retry-12-24-48h', 'bounce-blacklist'];

export class UnknownStrategyError extends Error {}

/** `a,b,c` or `all`, in the order given; an unknown or repeated name is named with the known ones. */
export function pickStrategies(list: string): Strategy[] {
  const names = list
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  if (names.length === 0) throw new UnknownStrategyError(`--strategies names no strategy; known: ${knownNames()}, or all`);
  if (names.length === 1 && names[0] === 'all') return [...STRATEGIES];
  const picked: Strategy[] = [];
  for (const name of names) {
    const s = STRATEGIES.find((x) => x.name === name);
    if (s === undefined) throw new UnknownStrategyError(`--strategies: unknown strategy "${name}"; known: ${knownNames()}, or all`);
    if (picked.includes(s)) throw new UnknownStrategyError(`--strategies: "${name}" is named twice`);
    picked.push(s);
  }
  return picked;
}

function knownNames(): string {
  return STRATEGIES.map((s) => s.name).join(', ');
}
