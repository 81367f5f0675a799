import { describe, expect, it } from 'vitest';
import { recipientOutcomes } from './recipient-outcomes.js';

const CAP = [131049];

describe('recipient outcomes', () => {
  it('groups a campaign the way an operator asks about it', () => {
    const groups = recipientOutcomes(
      [
        { status: 'sent', outcome: 'read', code: null, count: 40 },
        { status: 'sent', outcome: 'delivered', code: null, count: 30 },
        { status: 'sent', outcome: 'accepted', code: null, count: 2 },
        { status: 'queued', outcome: null, code: 131049, count: 9 },
        { status: 'queued', outcome: null, code: 131016, count: 1 },
        { status: 'queued', outcome: null, code: null, count: 3 },
        { status: 'held', outcome: null, code: 130472, count: 4 },
        { status: 'held', outcome: null, code: 190, count: 6 },
        { status: 'done', outcome: 'capped_exhausted', code: 131049, count: 2 },
        { status: 'done', outcome: 'failed', code: 131026, count: 5 },
        { status: 'done', outcome: 'failed', code: 131000, count: 1 },
        { status: 'done', outcome: 'skipped', code: null, count: 8 },
        { status: 'unknown', outcome: null, code: null, count: 1 },
        { status: 'leased', outcome: null, code: null, count: 1 },
      ],
      [
        { reason: 'marketing_stopped', count: 5 },
        { reason: 'us_marketing_pause', count: 2 },
      ],
      CAP,
    );
    const by = Object.fromEntries(groups.map((g) => [g.key, g]));
    expect(groups.reduce((n, g) => n + g.count, 0)).toBe(113);
    expect(groups[0]).toMatchObject({ key: 'read', count: 40 });
    expect(by['capped_pending_retry']).toMatchObject({
      outcome: 'capped_pending_retry',
      errorClass: 'per_user_marketing_cap',
      count: 9,
      codes: [{ code: 131049, count: 9 }],
    });
    expect(by['retry_pending:transient_server']).toMatchObject({ outcome: 'retry_pending', count: 1 });
    expect(by['waiting']).toMatchObject({ count: 3, codes: [] });
    expect(by['held_for_window']).toMatchObject({ count: 4, codes: [{ code: 130472, count: 4 }] });
    // Held for the number's fix, not for the contact: no retry is scheduled, and none is promised.
    expect(by['held_for_operator:auth_permission']).toMatchObject({
      outcome: 'held_for_operator',
      label: 'Held until an operator fixes it: Token or permission problem',
      codes: [{ code: 190, count: 6 }],
    });
    expect(by['failed:recipient_undeliverable']).toMatchObject({ outcome: 'failed', count: 5 });
    expect(by['skipped:marketing_stopped']).toMatchObject({ label: 'Skipped: the contact stopped marketing', count: 5 });
    expect(by['skipped:us_marketing_pause']?.count).toBe(2);
    // One skipped row has no skip decision: the campaign ended before it went.
    expect(by['skipped:campaign_ended']).toMatchObject({ label: 'Not sent before the campaign ended', count: 1 });
    expect(by['unknown']?.label).toMatch(/never re-sent blindly/);
    expect(by['sending']?.count).toBe(1);
  });

  it('returns nothing for an empty campaign and orders ties by key', () => {
    expect(recipientOutcomes([], [], CAP)).toEqual([]);
    const tie = recipientOutcomes(
      [
        { status: 'sent', outcome: 'read', code: null, count: 1 },
        { status: 'sent', outcome: 'delivered', code: null, count: 1 },
      ],
      [],
      CAP,
    );
    expect(tie.map((g) => g.key)).toEqual(['delivered', 'read']);
  });
});
