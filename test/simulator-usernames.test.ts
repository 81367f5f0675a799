import { describe, expect, it } from 'vitest';
import { MINUTE } from '../src/core/time.js';
import { strictProblems } from './meta-webhook-strict-schema.js';
import { accepted, ORDERLY_WEBHOOKS, sendTemplate, startHarness } from './simulator-harness.js';

const population = (withheldPhone: 'omitted' | 'empty') => ({
  size: 5,
  usernameRate: 1,
  withheldPhone,
  notOnWhatsAppRate: 0,
  experimentRate: 0,
  stoppedRate: 0,
  replyPropensity: { min: 0, max: 0 },
  readPropensity: { min: 0, max: 0 },
});

describe('simulator: users with a username', () => {
  it.each([
    ['omitted', undefined],
    ['empty', ''],
  ] as const)('withholds the number (%s) until the business messages it, then shows it', async (withheldPhone, shown) => {
    const h = await startHarness({ seed: 5, population: population(withheldPhone), webhooks: ORDERLY_WEBHOOKS });
    try {
      const [u] = h.sim.users;
      if (u === undefined) throw new Error('no user');
      expect(u.username).not.toBeNull();
      h.sim.act.writes(u.phone, 'Hi');
      await h.sim.advance(MINUTE);
      accepted(
        await h.client.send({
          type: 'template',
          endpoint: 'messages',
          to: { kind: 'user_id', userId: u.userId },
          messageId: 'by-id',
          template: { name: 'order_update', language: 'en_US' },
        }),
      );
      await h.sim.advance(MINUTE);
      const withheld = h.receiver.changes('messages').map((c) => c.value);
      const inbound = withheld.find((v) => v.messages !== undefined) as {
        contacts: Array<Record<string, unknown>>;
        messages: Array<Record<string, unknown>>;
      };
      expect(inbound.messages[0]?.from).toBe(shown);
      expect(inbound.messages[0]?.from_user_id).toBe(u.userId);
      expect(inbound.contacts[0]).toMatchObject({ user_id: u.userId, profile: { username: u.username } });
      expect(inbound.contacts[0]?.wa_id).toBe(shown);
      const statuses = withheld.flatMap((v) => (v.statuses as Array<Record<string, unknown>> | undefined) ?? []);
      expect(statuses.length).toBeGreaterThan(0);
      for (const s of statuses) expect([s.recipient_id, s.recipient_user_id]).toEqual([shown, u.userId]);

      const seen = h.receiver.received.length;
      accepted(await sendTemplate(h.client, u.phone, 'by-phone', 'order_update'));
      await h.sim.advance(MINUTE);
      const later = h.receiver.received.slice(seen).flatMap((r) => r.body.entry.flatMap((e) => e.changes));
      const after = later.flatMap((c) => (c.value.statuses as Array<Record<string, unknown>> | undefined) ?? []);
      expect(after.length).toBeGreaterThan(0);
      for (const s of after) expect([s.recipient_id, s.recipient_user_id]).toEqual([u.phone, u.userId]);
      // Meta documented "" before February 2026 and omits the field since: both hold to its shapes.
      const profile = withheldPhone === 'empty' ? 'documented' : 'current';
      expect(h.receiver.received.flatMap((r) => strictProblems(r.body, profile))).toEqual([]);
    } finally {
      await h.close();
    }
  });

  it('refuses an authentication template by recipient with 131062, and takes it by phone', async () => {
    const h = await startHarness({ seed: 5, population: population('omitted'), webhooks: ORDERLY_WEBHOOKS });
    try {
      const [u] = h.sim.users;
      if (u === undefined) throw new Error('no user');
      const result = await h.client.send({
        type: 'template',
        endpoint: 'messages',
        to: { kind: 'user_id', userId: u.userId },
        messageId: 'otp-by-id',
        template: { name: 'login_code', language: 'en_US' },
      });
      expect(result).toMatchObject({ kind: 'rejected', code: 131062 });
      accepted(await sendTemplate(h.client, u.phone, 'otp-by-phone', 'login_code'));
    } finally {
      await h.close();
    }
  });

  it('rejects an unknown way of withholding the number', async () => {
    await expect(startHarness({ population: { withheldPhone: 'blank' as 'empty' } })).rejects.toThrow(
      'simulator config: population.withheldPhone must be "omitted" or "empty", got "blank"',
    );
  });
});
