import { DAY, HOUR } from '../../core/time.js';

/** The week both strategies live through, on the same simulated population. */
export interface DemoPlan {
  seed: number;
  audience: number;
  days: number;
  /** Share of the audience that opted in to marketing. */
  marketingOptIn: number;
  /** Share that opted in to utility messages: order updates go to them only. */
  utilityOptIn: number;
  marketing: { template: string; language: string; at: number };
  /** Order updates: each goes to a share of the audience at its time. */
  utility: Array<{ template: string; language: string; at: number; share: number }>;
  mps: number;
}

/**
 * The demo's audience when none is given. Four worlds share two cores, and a peer's world is mostly
 * HTTP exchanges with the simulator, so the demo's time grows with the audience whatever Pacer costs:
 * 10,000 finishes within a minute on two cores. The shares match 50,000's; rows decided by a handful
 * of messages there (reads) can tie here.
 */
export const DEMO_AUDIENCE = 10_000;

export function defaultDemoPlan(audience = DEMO_AUDIENCE): DemoPlan {
  return {
    seed: 20261129,
    audience,
    days: 7,
    marketingOptIn: 0.9,
    utilityOptIn: 1,
    marketing: { template: 'spring_sale', language: 'en_US', at: 1 * HOUR },
    utility: [1, 3, 5].map((d) => ({ template: 'order_update', language: 'en_US', at: d * DAY + 2 * HOUR, share: 0.3 })),
    mps: 80,
  };
}

/** Deterministic membership: the same contacts get the same broadcasts in both worlds. */
export function inShare(index: number, salt: number, share: number): boolean {
  let h = (index * 2654435761 + salt * 40503) >>> 0;
  h ^= h >>> 15;
  h = Math.imul(h, 2246822519) >>> 0;
  // `^` yields a signed 32-bit integer: back to unsigned, or a negative remainder passes every share.
  h = (h ^ (h >>> 13)) >>> 0;
  return (h % 10_000) / 10_000 < share;
}

/** What person `index` agreed to: the same people in every world, so the worlds differ only in strategy. */
export function consentsOf(plan: DemoPlan, index: number): { marketing: boolean; utility: boolean } {
  return { marketing: inShare(index, 1, plan.marketingOptIn), utility: inShare(index, 2, plan.utilityOptIn) };
}

/** Whether order update `k` concerns person `index` (they bought something), whatever they consented to. */
export function hasOrderUpdate(plan: DemoPlan, k: number, index: number): boolean {
  const u = plan.utility[k];
  return u !== undefined && inShare(index, 100 + k, u.share);
}
