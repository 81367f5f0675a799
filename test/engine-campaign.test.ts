import { describe, expect, it } from 'vitest';
import type { MessageTruth } from '../src/adapters/simulator/index.js';
import { recipientRegion } from '../src/app/recipient-region.js';
import { DAY } from '../src/core/time.js';
import type { OutboxOutcome } from '../src/ports/store.js';
import { BACKENDS } from './store-backends.js';
import { attemptsByRow, isFinalOrScheduled, withRig } from './engine-rig.js';

/** The outcome Pacer must have recorded for a send, given what really happened to it. */
const OUTCOME_OF_TRUTH: Record<MessageTruth['status'], OutboxOutcome | null> = {
  accepted: 'accepted',
  sent: 'accepted',
  // Dropped by Meta after its time-to-live: only `sent` was reported.
  expired: 'accepted',
  delivered: 'delivered',
  read: 'read',
  failed: null,
};

describe.each(BACKENDS)('a campaign end to end on $name', (backend) => {
  it('reaches the opted-in audience once each, and the store agrees with what really happened', async () => {
    // One in ten never opted in to marketing.
    await withRig(backend, { marketingConsent: (u) => u.index % 10 !== 0 }, async (rig) => {
      const optedIn = rig.sim.users.filter((u) => u.index % 10 !== 0);
      const id = await rig.createCampaign();
      const started = await rig.startCampaign(id);
      expect(started).toEqual({ scanned: rig.sim.users.length, matched: optedIn.length, inserted: optedIn.length });

      await rig.advance(3 * DAY);
      const truth = rig.sim.groundTruth();
      const rows = await rig.outbox(id);
      const counters = await rig.store.campaignCounters(id);
      expect(counters.total).toBe(optedIn.length);
      expect(rows).toHaveLength(optedIn.length);
      expect((await rig.store.getCampaign(id))?.status).toBe('running');

      // Nothing is stuck mid-send: every row is settled or waits for a time or a window.
      expect(rows.filter((r) => !isFinalOrScheduled(r))).toEqual([]);
      expect(counters.leased + counters.sending + counters.unknown).toBe(0);

      // Every send the store remembers is one the simulator accepted for that very row, and the row's
      // outcome is the message's real fate.
      const byWamid = new Map(truth.messages.map((m) => [m.wamid, m]));
      for (const row of rows.filter((r) => r.wamid !== null)) {
        const real = byWamid.get(row.wamid ?? '');
        expect(real?.messageId).toBe(`pacer:${row.id}`);
        if (real !== undefined && real.status !== 'failed') expect(row.outcome).toBe(OUTCOME_OF_TRUTH[real.status]);
      }

      // Delivered counts: the store's delivered and read rows are exactly the really delivered messages.
      const deliveredTotal = Object.values(truth.deliveredTo).reduce((a, b) => a + b, 0);
      expect(deliveredTotal).toBeGreaterThan(optedIn.length / 3);
      expect(counters.delivered + counters.read).toBe(deliveredTotal);
      const deliveredRows = rows.filter((r) => r.outcome === 'delivered' || r.outcome === 'read');
      const deliveredPhones = new Set(deliveredRows.map((r) => rig.sim.users[rig.contactIds.indexOf(r.contactId)]?.phone));
      expect(deliveredPhones).toEqual(new Set(Object.keys(truth.deliveredTo)));

      // No recipient got the campaign twice, and nobody without marketing consent got it at all.
      expect(Object.entries(truth.deliveredTo).filter(([, n]) => n > 1)).toEqual([]);
      const notOptedIn = new Set(rig.sim.users.filter((u) => u.index % 10 === 0).map((u) => u.phone));
      expect(truth.messages.filter((m) => notOptedIn.has(m.to))).toEqual([]);

      // US numbers are skipped while Meta's pause stands: never attempted, so never a 131049 for it.
      const us = optedIn.filter((u) => recipientRegion(`+${u.phone}`) === 'US');
      expect(us.length).toBeGreaterThan(0);
      const usPhones = new Set(us.map((u) => u.phone));
      expect(truth.messages.filter((m) => usPhones.has(m.to))).toEqual([]);
      const usRows = rows.filter((r) => us.some((u) => rig.contactOf(u) === r.contactId));
      expect(usRows.map((r) => r.outcome)).toEqual(us.map(() => 'skipped'));

      // Each row's attempts in the simulator: at most the policy's cap attempts, one at a time.
      for (const [rowId, attempts] of attemptsByRow(truth.messages)) {
        expect(rows.some((r) => r.id === rowId)).toBe(true);
        expect(attempts.length).toBeLessThanOrEqual(rig.policy.capRetry.maxAttemptsPerMessage);
        expect(attempts.slice(0, -1).every((m) => m.status === 'failed')).toBe(true);
      }
      // Pacer never tripped a synchronous refusal it could have avoided.
      expect(truth.syncErrors).toEqual({});
    });
  });
});
