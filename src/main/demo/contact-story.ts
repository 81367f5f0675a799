import type { MessageTruth } from '../../adapters/simulator/index.js';
import { DAY, type Millis } from '../../core/time.js';
import type { WorldOutcome } from './run-world.js';

/** One person's week under a strategy, told from the simulator's ground truth. */
export interface ContactStory {
  strategy: string;
  /** The person's number, masked. */
  contact: string;
  story: string;
}

/**
 * The person whose story every strategy tells: the one whose first campaign message was capped
 * (131049) in the most worlds, then reached in the end in the most, then the first by number; US
 * numbers are left out (marketing to +1 never arrives). The same person in every world, so the
 * stories differ only by strategy.
 */
export function storyContact(outcomes: readonly WorldOutcome[]): string | null {
  const score = new Map<string, { capped: number; reached: number }>();
  const reachedIn: Array<Set<string>> = [];
  for (const o of outcomes) {
    const firstTry = new Map<string, MessageTruth>();
    const reached = new Set<string>();
    for (const m of o.truth.messages) {
      if (m.category !== 'marketing' || m.to.startsWith('1')) continue;
      if (m.deliveredAt !== null) reached.add(m.to);
      const seen = firstTry.get(m.to);
      if (seen === undefined || m.acceptedAt < seen.acceptedAt) firstTry.set(m.to, m);
    }
    for (const m of firstTry.values()) {
      if (m.errorCode !== 131049) continue;
      const s = score.get(m.to) ?? { capped: 0, reached: 0 };
      s.capped++;
      score.set(m.to, s);
    }
    reachedIn.push(reached);
  }
  for (const [to, s] of score) s.reached = reachedIn.filter((r) => r.has(to)).length;
  const ranked = [...score].sort(([a, x], [b, y]) => y.capped - x.capped || y.reached - x.reached || (a < b ? -1 : a > b ? 1 : 0));
  return ranked[0]?.[0] ?? null;
}

export function contactStories(outcomes: readonly WorldOutcome[], start: Millis): ContactStory[] {
  const to = storyContact(outcomes);
  if (to === null) return [];
  const expectedUpdates = Math.max(0, ...outcomes.map((o) => orderUpdates(o, to)));
  return outcomes.map((o) => ({ strategy: o.strategy, contact: mask(to), story: tell(o, to, start, expectedUpdates) }));
}

function orderUpdates(o: WorldOutcome, to: string): number {
  return new Set(o.truth.messages.filter((m) => m.to === to && m.category === 'utility').map((m) => m.messageId ?? m.wamid)).size;
}

function tell(o: WorldOutcome, to: string, start: Millis, expectedUpdates: number): string {
  const mine = o.truth.messages.filter((m) => m.to === to).sort((a, b) => a.acceptedAt - b.acceptedAt);
  const parts: string[] = [];
  let campaignTries = 0;
  for (const m of mine) {
    const what = m.category === 'marketing' ? (campaignTries++ === 0 ? 'the campaign' : 'the campaign again') : 'an order update';
    parts.push(`${what}: ${fate(m, start)}`);
  }
  if (campaignTries === 0) parts.push('the campaign: never sent');
  const missing = expectedUpdates - orderUpdates(o, to);
  if (missing > 0) parts.push(`${missing} order update${missing === 1 ? '' : 's'} never sent`);
  return parts.join('; ') + '.';
}

function fate(m: MessageTruth, start: Millis): string {
  if (m.deliveredAt !== null) return `delivered on ${when(m.deliveredAt, m.timeZone, start)}`;
  const tried = when(m.acceptedAt, m.timeZone, start);
  if (m.errorCode === 131049) return `capped (131049) on ${tried}`;
  if (m.errorCode !== null) return `failed (${m.errorCode}) on ${tried}`;
  return `sent on ${tried}, not delivered by the end`;
}

/**
 * `day 3 at 10:02 local`: the day and the time both on the person's clock. Day 1 is the date the run
 * starts on there, so a retry 12 h after 14:30 on day 1 reads 02:30 on day 2, not on day 1.
 */
export function when(at: Millis, timeZone: string | null, start: Millis): string {
  const zone = timeZone ?? 'UTC';
  const day = Math.round((localDate(at, zone) - localDate(start, zone)) / DAY) + 1;
  const time = new Intl.DateTimeFormat('en-GB', { timeZone: zone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(at);
  return `day ${day} at ${time}${timeZone === null ? ' UTC' : ' local'}`;
}

/** Midnight UTC of the calendar date `at` falls on in `timeZone`. */
function localDate(at: Millis, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).formatToParts(at);
  const part = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  return Date.UTC(part('year'), part('month') - 1, part('day'));
}

function mask(phone: string): string {
  return `+${'•'.repeat(Math.max(0, phone.length - 4))}${phone.slice(-4)}`;
}
