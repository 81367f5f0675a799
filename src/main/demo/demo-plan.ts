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

/** A well-mixed 32-bit hash of a person's index and a salt: their place in line for one share. */
function rank(index: number, salt: number): number {
  let h = (index * 2654435761 + salt * 40503) >>> 0;
  h ^= h >>> 15;
  h = Math.imul(h, 2246822519) >>> 0;
  // `^` yields a signed 32-bit integer: back to unsigned.
  return (h ^ (h >>> 13)) >>> 0;
}

/**
 * Exactly round(share × size) of `size` people, the same ones in every world and on every run: those
 * ranked first for the salt. A per-person draw strays from the share on a small file (66 % of 77
 * people came out as 77 %); each salt ranks people independently of the others.
 */
export function shareMembers(size: number, salt: number, share: number): Uint8Array {
  const order = Array.from({ length: size }, (_, i) => i).sort((a, b) => rank(a, salt) - rank(b, salt) || a - b);
  const members = new Uint8Array(size);
  for (const i of order.slice(0, Math.round(share * size))) members[i] = 1;
  return members;
}

const membersOf = new WeakMap<DemoPlan, Map<string, Uint8Array>>();

/** `shareMembers` for the plan's audience, worked out once per plan and salt. */
function inPlanShare(plan: DemoPlan, salt: number, share: number, index: number): boolean {
  let bySalt = membersOf.get(plan);
  if (bySalt === undefined) membersOf.set(plan, (bySalt = new Map()));
  const key = `${salt}:${share}`;
  let members = bySalt.get(key);
  if (members === undefined) bySalt.set(key, (members = shareMembers(plan.audience, salt, share)));
  return members[index] === 1;
}

/** What person `index` agreed to: the same people in every world, so the worlds differ only in strategy. */
export function consentsOf(plan: DemoPlan, index: number): { marketing: boolean; utility: boolean } {
  return { marketing: inPlanShare(plan, 1, plan.marketingOptIn, index), utility: inPlanShare(plan, 2, plan.utilityOptIn, index) };
}

/** Whether order update `k` concerns person `index` (they bought something), whatever they consented to. */
export function hasOrderUpdate(plan: DemoPlan, k: number, index: number): boolean {
  const u = plan.utility[k];
  return u !== undefined && inPlanShare(plan, 100 + k, u.share, index);
}
