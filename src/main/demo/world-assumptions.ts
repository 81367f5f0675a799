import { resolveSimulatorConfig, type SimulatorConfigInput } from '../../adapters/simulator/index.js';
import { HOUR } from '../../core/time.js';

/** One thing the simulated world assumes, and whether Meta documents it or it is our modelling choice. */
export interface Assumption {
  topic: string;
  says: string;
  /** `meta`: Meta's documentation (../shared/reference/meta-cloud-api.md, section given); `ours`: a modelling choice. */
  from: 'meta' | 'ours';
  where?: string;
}

const pct = (x: number) => `${(100 * x).toLocaleString('en-US', { maximumFractionDigits: 2 })}%`;
const range = (r: { min: number; max: number }, unit = '') => `${r.min}${unit}–${r.max}${unit}`;

/** What the world the strategies share assumes, read from the resolved simulator settings, so the text follows the figures. */
export function worldAssumptions(input: SimulatorConfigInput): Assumption[] {
  const c = resolveSimulatorConfig(input);
  const p = c.population;
  const r = c.reactions;
  const n = r.night;
  const hh = (h: number) => `${String(h).padStart(2, '0')}:00`;
  return [
    {
      topic: 'cap model',
      says: 'Every business’s delivered marketing counts toward one per-user cap; the cap is adaptive (tighter for people who read little); a capped message fails with 131049 and is not billed.',
      from: 'meta',
      where: '§5.5, §5.8',
    },
    {
      topic: 'cap size',
      says: `${c.cap.minPerWindow}–${c.cap.maxPerWindow} marketing messages per ${c.cap.windowMs / HOUR} h rolling window, scaled by the person’s read propensity; Meta publishes no number.`,
      from: 'ours',
    },
    {
      topic: 'other businesses',
      says: `Each person gets ${range(p.otherMarketingPerDay)} marketing messages a day from other businesses, sharing the same cap.`,
      from: 'ours',
    },
    {
      topic: 'retry inside the cap',
      says: 'Resending a capped message within 24 h fails again.',
      from: 'meta',
      where: '§6 (131049: retry only after ≥ 24 h)',
    },
    {
      topic: 'penalty restart',
      says: `After a 131049 our business is locked out of that person for ${c.cap.retryPenaltyMs / HOUR} h, and each try inside that time starts it again.`,
      from: 'ours',
    },
    {
      topic: 'US and uncapped regions',
      says: `Marketing to +1 US numbers fails with 131049 (${c.cap.usMarketingPause ? 'on' : 'off'}); no cap in ${c.cap.uncappedRegions.join(', ')}.`,
      from: 'meta',
      where: '§5.5',
    },
    {
      topic: 'experiment share',
      says: `${pct(p.experimentRate)} of people are in Meta’s marketing experiment (130472, no marketing at all). Meta says only “a very small percentage”.`,
      from: 'ours',
      where: 'the experiment itself: §5.6',
    },
    {
      topic: 'stops',
      says: `A delivered marketing message makes its reader tap “Stop promotions” with base chance ${pct(r.stopTapRate)} and stop in WhatsApp’s settings with ${pct(r.preferenceStopRate)}, more when it interests them less and comes often; ${pct(p.stoppedRate)} had stopped before the run.`,
      from: 'ours',
    },
    {
      topic: 'blocks and reports',
      says: `Base chance per delivered marketing message: block ${pct(r.blockRate)}, report ${pct(r.reportRate)}; retries into a cap add annoyance. Quality drops with blocks and reports (the thresholds are ours).`,
      from: 'ours',
    },
    {
      topic: 'reads and replies by hour',
      says: `People read ${range(p.readPropensity)} of what they get and reply to ${range(p.replyPropensity)}; at night (${hh(n.fromHour)}–${hh(n.toHour)} on their clock) reads and replies come ${n.readDelayFactor}× slower, blocks are ${n.blockFactor}× and reports ${n.reportFactor}× as likely.`,
      from: 'ours',
    },
    {
      topic: 'not on WhatsApp',
      says: `${pct(p.notOnWhatsAppRate)} of numbers are not on WhatsApp.`,
      from: 'ours',
    },
    {
      topic: 'billing',
      says: 'Only delivered templates are billed, by category and the recipient’s country; the rates in the price table are ours.',
      from: 'meta',
      where: '§5.8',
    },
  ];
}
