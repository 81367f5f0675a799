import type { BreakerWindow } from './campaign-breaker.js';

/** One final delivery event (delivered, read or failed) of a campaign message's first attempt. */
export interface CampaignOutcome {
  /** The message event's id: events are counted newest first by it. */
  eventId: number;
  campaignId: number;
  wamid: string;
  status: 'delivered' | 'read' | 'failed';
  errorCode: number | null;
}

/**
 * How far back in all message events a campaign window may look (minutes at full rate): the breaker
 * is about now, so a campaign that sends little is judged on recent traffic, not last week's.
 */
export const RECENT_EVENTS = 5_000;

/**
 * The outcomes the breaker has read so far, per campaign, newest last: each check reads only the
 * events recorded since the previous one instead of every campaign's window again.
 */
export interface OutcomeMemo {
  /** Newest message event id read; -1 before the first read. */
  lastEventId: number;
  byCampaign: Map<number, CampaignOutcome[]>;
}

export function emptyOutcomeMemo(): OutcomeMemo {
  return { lastEventId: -1, byCampaign: new Map() };
}

/**
 * Adds outcomes read after `memo.lastEventId` (a re-read overlap is allowed: events already held are
 * ignored) and keeps each campaign's newest `keep`, which is all a window of `keep` can use.
 */
export function rememberOutcomes(memo: OutcomeMemo, outcomes: readonly CampaignOutcome[], latestEventId: number, keep: number): void {
  const touched = new Set<CampaignOutcome[]>();
  for (const o of outcomes) {
    let list = memo.byCampaign.get(o.campaignId);
    if (list === undefined) memo.byCampaign.set(o.campaignId, (list = []));
    list.push(o);
    touched.add(list);
  }
  for (const list of touched) {
    list.sort((a, b) => a.eventId - b.eventId);
    let w = 0;
    for (let r = 0; r < list.length; r++) {
      const o = list[r] as CampaignOutcome;
      if (w === 0 || (list[w - 1] as CampaignOutcome).eventId !== o.eventId) list[w++] = o;
    }
    list.length = w;
    if (list.length > keep) list.splice(0, list.length - keep);
  }
  memo.lastEventId = Math.max(memo.lastEventId, latestEventId);
  // A campaign whose newest outcome is older than any window can reach has nothing left to count.
  const oldest = memo.lastEventId - RECENT_EVENTS;
  for (const [id, list] of memo.byCampaign) if ((list.at(-1)?.eventId ?? oldest) <= oldest) memo.byCampaign.delete(id);
}

/** Forgets every campaign but these (the running ones). */
export function forgetCampaignsExcept(memo: OutcomeMemo, keep: ReadonlySet<number>): void {
  for (const id of memo.byCampaign.keys()) if (!keep.has(id)) memo.byCampaign.delete(id);
}

/**
 * A campaign's window: its latest `limit` outcomes among the newest RECENT_EVENTS events of all
 * traffic, counted per message (a delivered and a read of one message are one outcome).
 */
export function outcomeWindow(
  memo: OutcomeMemo,
  campaignId: number,
  limit: number,
  capCodes: readonly number[],
  stopCodes: readonly number[],
): BreakerWindow {
  const list = memo.byCampaign.get(campaignId) ?? [];
  const oldest = memo.lastEventId - RECENT_EVENTS;
  const all = new Set<string>();
  const caps = new Set<string>();
  const stops = new Set<string>();
  for (let i = list.length - 1, taken = 0; i >= 0 && taken < limit; i--, taken++) {
    const o = list[i] as CampaignOutcome;
    if (o.eventId <= oldest) break;
    all.add(o.wamid);
    if (o.status !== 'failed' || o.errorCode === null) continue;
    if (capCodes.includes(o.errorCode)) caps.add(o.wamid);
    if (stopCodes.includes(o.errorCode)) stops.add(o.wamid);
  }
  return { outcomes: all.size, caps: caps.size, accountStops: stops.size };
}
