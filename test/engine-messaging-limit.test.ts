import { describe, expect, it } from 'vitest';
import { DAY, HOUR, MINUTE } from '../src/core/time.js';
import { BACKENDS } from './store-backends.js';
import { onlyCountries, withRig } from './engine-rig.js';

describe.each(BACKENDS)('the portfolio messaging limit on $name', (backend) => {
  it('starts conversations with no more new people per rolling 24 h than the tier allows, and spreads the rest over days', async () => {
    await withRig(backend, { sim: { population: { size: 120, countries: onlyCountries('GB') } } }, async (rig) => {
      const sender = await rig.store.getSenderById(rig.senderId);
      if (sender === null) throw new Error('sender expected');
      await rig.store.upsertSenders([{ ...sender, messagingLimitTier: 'TIER_50' }], rig.clock.now());
      const start = rig.clock.now();
      expect(await rig.sendUtility(rig.sim.users, 'notice')).toBe(120);

      const people = () => new Set(rig.sim.groundTruth().messages.map((m) => m.to)).size;
      await rig.advance(HOUR);
      expect(people()).toBe(50);
      const waiting = (await rig.outbox(null)).filter((r) => r.status === 'queued');
      expect(waiting).toHaveLength(70);
      // They wait for the first conversations to leave the window, not for a blind retry.
      expect(Math.min(...waiting.map((r) => r.nextAttemptAt))).toBeGreaterThanOrEqual(start + DAY);
      const decision = (await rig.store.contactTimeline(waiting[0]?.contactId ?? -1, 10)).find((e) => e.type === 'decision');
      expect(decision).toMatchObject({ kind: 'defer', reason: 'messaging_limit' });

      await rig.advance(DAY);
      expect(people()).toBe(100);
      await rig.advance(DAY);
      expect(people()).toBe(120);
      // Nobody got the notice twice.
      expect(rig.sim.groundTruth().messages).toHaveLength(120);
      expect(await rig.store.conversationWindow(rig.senderId, rig.clock.now() - DAY)).toMatchObject({ people: 20 });
    });
  });

  it('spaces messages to one person by the pair rate instead of earning 131056', async () => {
    await withRig(backend, { sim: { population: { size: 5, countries: onlyCountries('GB') } } }, async (rig) => {
      const user = rig.sim.users[0];
      if (user === undefined) throw new Error('a user expected');
      for (const key of ['a', 'b', 'c']) await rig.sendUtility([user], `burst-${key}`);
      await rig.advance(MINUTE);
      const times = rig.sim
        .groundTruth()
        .messages.filter((m) => m.to === user.phone)
        .map((m) => m.acceptedAt)
        .sort((x, y) => x - y);
      expect(times).toHaveLength(3);
      for (let i = 1; i < times.length; i++) expect((times[i] ?? 0) - (times[i - 1] ?? 0)).toBeGreaterThanOrEqual(rig.policy.pairRateGapMs);
      expect(rig.sim.groundTruth().syncErrors).toEqual({});
    });
  });
});
