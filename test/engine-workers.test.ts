import { describe, expect, it } from 'vitest';
import { HOUR, SECOND } from '../src/core/time.js';
import { BACKENDS } from './store-backends.js';
import { attemptsByRow, isFinalOrScheduled, withRig } from './engine-rig.js';

describe.each(BACKENDS)('several workers on $name', (backend) => {
  it('shares the work between three workers on one store without sending any message twice', async () => {
    // 3 × 20 messages per second stays under the number's 80, which the workers share.
    await withRig(backend, { workers: 3, mps: 20, senderMps: 80 }, async (rig) => {
      const id = await rig.createCampaign();
      const startedAt = rig.clock.now();
      await rig.startCampaign(id);
      await rig.advance(30 * HOUR); // past the first cap retries
      const truth = rig.sim.groundTruth();
      expect(truth.syncErrors).toEqual({});
      // More than one worker's budget went out in the first second, so the workers really shared it.
      expect(truth.messages.filter((m) => m.acceptedAt < startedAt + SECOND).length).toBeGreaterThan(20);

      const rows = await rig.outbox(id);
      expect(rows.filter((r) => !isFinalOrScheduled(r))).toEqual([]);
      // A row is sent again only after its previous attempt failed, never twice at once.
      for (const attempts of attemptsByRow(truth.messages).values()) {
        expect(attempts.slice(0, -1).filter((m) => m.status !== 'failed')).toEqual([]);
      }
      expect(Object.entries(truth.deliveredTo).filter(([, n]) => n > 1)).toEqual([]);
      const counters = await rig.store.campaignCounters(id);
      expect(counters.delivered + counters.read).toBe(Object.values(truth.deliveredTo).reduce((a, b) => a + b, 0));
    });
  });
});
