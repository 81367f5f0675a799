import { describe, expect, it } from 'vitest';
import {
  emptyOutcomeMemo,
  forgetCampaignsExcept,
  outcomeWindow,
  RECENT_EVENTS,
  rememberOutcomes,
  type CampaignOutcome,
} from './campaign-outcome-window.js';

const CAP = [131049];
const STOP = [131048];

function outcome(
  eventId: number,
  wamid: string,
  status: CampaignOutcome['status'] = 'delivered',
  errorCode: number | null = null,
  campaignId = 1,
) {
  return { eventId, campaignId, wamid, status, errorCode };
}

describe('campaign outcome window', () => {
  it('counts messages, not events: a delivered and a read of one message are one outcome', () => {
    const memo = emptyOutcomeMemo();
    rememberOutcomes(
      memo,
      [outcome(1, 'a'), outcome(2, 'a', 'read'), outcome(3, 'b', 'failed', 131049), outcome(4, 'c', 'failed', 131048)],
      4,
      500,
    );
    expect(outcomeWindow(memo, 1, 500, CAP, STOP)).toEqual({ outcomes: 3, caps: 1, accountStops: 1 });
    expect(outcomeWindow(memo, 1, 500, [], [])).toEqual({ outcomes: 3, caps: 0, accountStops: 0 });
    expect(outcomeWindow(memo, 2, 500, CAP, STOP)).toEqual({ outcomes: 0, caps: 0, accountStops: 0 });
  });

  it('takes the latest `limit` events of the campaign only', () => {
    const memo = emptyOutcomeMemo();
    rememberOutcomes(memo, [outcome(1, 'a', 'failed', 131049), outcome(2, 'b'), outcome(3, 'c', 'failed', 131048)], 3, 500);
    expect(outcomeWindow(memo, 1, 2, CAP, STOP)).toEqual({ outcomes: 2, caps: 0, accountStops: 1 });
  });

  it('adds what later reads bring, ignores events read again, and keeps campaigns apart', () => {
    const memo = emptyOutcomeMemo();
    rememberOutcomes(memo, [outcome(1, 'a'), outcome(2, 'b', 'failed', 131049)], 2, 500);
    // An overlapping re-read, with a late event (id 3) that committed after id 4 was seen.
    rememberOutcomes(
      memo,
      [outcome(2, 'b', 'failed', 131049), outcome(4, 'd', 'failed', 131049), outcome(5, 'x', 'delivered', null, 2)],
      5,
      500,
    );
    rememberOutcomes(memo, [outcome(3, 'c'), outcome(4, 'd', 'failed', 131049)], 5, 500);
    expect(outcomeWindow(memo, 1, 500, CAP, STOP)).toEqual({ outcomes: 4, caps: 2, accountStops: 0 });
    expect(outcomeWindow(memo, 1, 2, CAP, STOP)).toEqual({ outcomes: 2, caps: 1, accountStops: 0 }); // ids 3 and 4
    expect(outcomeWindow(memo, 2, 500, CAP, STOP)).toEqual({ outcomes: 1, caps: 0, accountStops: 0 });
    expect(memo.lastEventId).toBe(5);
  });

  it('keeps only the newest `keep` per campaign, which is all a window of that size reads', () => {
    const memo = emptyOutcomeMemo();
    rememberOutcomes(
      memo,
      Array.from({ length: 10 }, (_, i) => outcome(i + 1, `m${i}`, 'failed', i < 5 ? 131049 : null)),
      10,
      5,
    );
    expect(memo.byCampaign.get(1)?.map((o) => o.eventId)).toEqual([6, 7, 8, 9, 10]);
    expect(outcomeWindow(memo, 1, 5, CAP, STOP)).toEqual({ outcomes: 5, caps: 0, accountStops: 0 });
  });

  it('looks no further back than the newest RECENT_EVENTS events of all traffic, and forgets campaigns past it', () => {
    const memo = emptyOutcomeMemo();
    rememberOutcomes(memo, [outcome(1, 'old', 'failed', 131049), outcome(2, 'new', 'delivered', null, 2)], 2, 500);
    rememberOutcomes(memo, [], RECENT_EVENTS + 1, 500);
    // Event 1 is now older than the newest RECENT_EVENTS; event 2 is the oldest still inside.
    expect(outcomeWindow(memo, 1, 500, CAP, STOP)).toEqual({ outcomes: 0, caps: 0, accountStops: 0 });
    expect(memo.byCampaign.has(1)).toBe(false);
    expect(outcomeWindow(memo, 2, 500, CAP, STOP)).toEqual({ outcomes: 1, caps: 0, accountStops: 0 });
  });

  it('forgets the campaigns it is told to: a resumed campaign starts from what arrives after the resume', () => {
    const memo = emptyOutcomeMemo();
    rememberOutcomes(memo, [outcome(1, 'a', 'failed', 131049), outcome(2, 'b', 'delivered', null, 2)], 2, 500);
    forgetCampaignsExcept(memo, new Set([2]));
    expect(outcomeWindow(memo, 1, 500, CAP, STOP)).toEqual({ outcomes: 0, caps: 0, accountStops: 0 });
    rememberOutcomes(memo, [outcome(3, 'c')], 3, 500);
    expect(outcomeWindow(memo, 1, 500, CAP, STOP)).toEqual({ outcomes: 1, caps: 0, accountStops: 0 });
    expect(outcomeWindow(memo, 2, 500, CAP, STOP)).toEqual({ outcomes: 1, caps: 0, accountStops: 0 });
  });
});
