import { describe, expect, it } from 'vitest';
import { storedTiming } from '../src/app/message-timing.js';
import { DEFAULT_POLICY } from '../src/core/policy.js';
import { DAY, HOUR, MINUTE, type Millis } from '../src/core/time.js';
import type { JsonObject } from '../src/ports/store.js';
import { onlyCountries, withRig, type Rig } from './engine-rig.js';
import { BACKENDS } from './store-backends.js';

const AUDIENCE = 1_000;
const BUCKET = 10 * MINUTE;

async function campaignWithTiming(rig: Rig, name: string, timing: Parameters<typeof storedTiming>[0]): Promise<number> {
  return rig.store.createCampaign(
    {
      name,
      templateId: rig.marketingTemplateId,
      senderId: rig.senderId,
      segment: { consent: ['marketing'] },
      scheduledAt: rig.clock.now(),
      policyPreset: 'meta',
      status: 'draft',
      timing: storedTiming(timing) as unknown as JsonObject,
    },
    rig.clock.now(),
  );
}

/** When Meta accepted each message of one campaign, from the simulator's ground truth (`pacer:<row id>`). */
async function acceptedTimes(rig: Rig, campaignId: number): Promise<Millis[]> {
  const rows = new Set((await rig.outbox(campaignId)).map((r) => `pacer:${r.id}`));
  return rig.sim
    .groundTruth()
    .messages.filter((m) => m.messageId !== null && rows.has(m.messageId))
    .map((m) => m.acceptedAt);
}

/** How many of `times` fall in each 10-minute bucket from `from`, for `buckets` buckets; what falls outside is counted apart. */
function perBucket(times: readonly Millis[], from: Millis, buckets: number): { counts: number[]; before: number; after: number } {
  const counts = new Array<number>(buckets).fill(0);
  let before = 0;
  let after = 0;
  for (const t of times) {
    const k = Math.floor((t - from) / BUCKET);
    if (k < 0) before++;
    else if (k >= buckets) after++;
    else counts[k]! += 1;
  }
  return { counts, before, after };
}

// A thousand recipients in London, with the built-in policy; the rig's clock starts on Monday 2 March
// 2026 at 08:00 UTC, 08:00 in London (GMT). The test is about when messages go: statuses ride in few
// webhook posts and reads come days later, so a thousand of each do not set its pace.
const WORLD = {
  policy: DEFAULT_POLICY,
  sim: {
    population: { size: AUDIENCE, countries: onlyCountries('GB'), notOnWhatsAppRate: 0 },
    webhooks: { batchRate: 1, maxBatch: 100 },
    reactions: { readDelayMs: { min: 3 * DAY, max: 4 * DAY } },
  },
};
const WINDOW = { from: 9 * 60, to: 20 * 60 };

describe.each(BACKENDS)('a spread inside the send window on $name', (backend) => {
  it('sends a morning audience held overnight over the spread, not all in the first minute after 09:00', { timeout: 300_000 }, async () => {
    await withRig(backend, WORLD, async (rig) => {
      const monday = Date.UTC(2026, 2, 2);
      // 22:00 on Monday: outside the 09:00–20:00 window, so every row waits for Tuesday morning.
      await rig.advance(14 * HOUR);
      const spread = await campaignWithTiming(rig, 'Spread', { window: WINDOW, spreadMs: 2 * HOUR });
      expect((await rig.startCampaign(spread)).inserted).toBe(AUDIENCE);
      await rig.advance(14 * HOUR);
      const tuesday = monday + DAY + 9 * HOUR;
      const sent = await acceptedTimes(rig, spread);
      expect(sent.length).toBe(AUDIENCE);
      const { counts, before, after } = perBucket(sent, tuesday, 12);
      expect(before).toBe(0);
      expect(after).toBe(0);
      // Each 10-minute bucket of the two hours carries its share of the audience (1/12, 8.3 %): no spike.
      for (const n of counts) {
        expect(n / AUDIENCE).toBeGreaterThanOrEqual(0.06);
        expect(n / AUDIENCE).toBeLessThanOrEqual(0.11);
      }
      expect(sent.filter((t) => t < tuesday + MINUTE).length / AUDIENCE).toBeLessThan(0.03);
      // Each row waited for the opening and its turn after it, and said so.
      const waiting = (await rig.store.contactTimeline(rig.contactIds[0] ?? -1, 10)).find(
        (e) => e.type === 'decision' && e.kind === 'defer',
      );
      expect(waiting).toMatchObject({ reason: 'outside_send_window', explanation: expect.stringContaining("this recipient's turn is") });
    });
  });
});
