import { describe, expect, it } from 'vitest';
import { recordConsent } from '../src/app/record-consent.js';
import { MINUTE } from '../src/core/time.js';
import type { Contact, OutboxInput, TimelineEntry } from '../src/ports/store.js';
import { BACKENDS } from './store-backends.js';
import { onlyCountries, UTILITY, withRig } from './engine-rig.js';

const AUTH = 'login_code';
const decisions = (timeline: readonly TimelineEntry[]): string[] =>
  timeline.flatMap((e) => (e.type === 'decision' ? [`${e.kind}:${e.reason}`] : [])).reverse();

/**
 * Users who hide their number behind a username write in; Pacer knows them by business-scoped id
 * alone, sends to them by `recipient`, and refuses them an authentication template (131062).
 */
describe.each(BACKENDS)('username users end to end on $name', (backend) => {
  it.each(['empty', 'omitted'] as const)(
    'phone fields %s: BSUID-only contacts are sent by recipient, never authentication',
    async (withheldPhone) => {
      const sim = {
        population: {
          size: 12,
          countries: onlyCountries('GB', 'DE'),
          usernameRate: 1,
          withheldPhone,
          notOnWhatsAppRate: 0,
          experimentRate: 0,
          stoppedRate: 0,
          replyPropensity: { min: 0, max: 0 },
        },
      };
      await withRig(backend, { sim }, async (rig) => {
        const [a, b] = rig.sim.users;
        if (a === undefined || b === undefined) throw new Error('population too small');
        rig.sim.act.writes(a.phone, 'Hi, where is my order?');
        rig.sim.act.writes(b.phone, 'Hello');
        await rig.advance(MINUTE);
        expect(await rig.store.listQuarantinedInbox(0, 10)).toEqual([]);
        const known = async (userId: string): Promise<Contact> => {
          const c = await rig.store.findContact({ bsuid: userId });
          if (c === null) throw new Error(`no contact for ${userId}`);
          return c;
        };
        const [ca, cb] = [await known(a.userId), await known(b.userId)];
        expect(ca.id).not.toBe(cb.id);
        for (const c of [ca, cb]) expect({ waId: c.waId, phoneE164: c.phoneE164 }).toEqual({ waId: null, phoneE164: null });

        for (const c of [ca, cb]) {
          await recordConsent(
            rig.store,
            c.id,
            { category: 'utility', status: 'granted', source: 'chat', evidence: null },
            rig.policy,
            rig.clock.now(),
          );
        }
        await rig.store.upsertTemplates(
          [{ name: AUTH, language: 'en_US', category: 'authentication', status: 'approved', quality: 'GREEN', pausedUntil: null }],
          rig.clock.now(),
        );
        const row = (contactId: number, category: 'utility' | 'authentication', name: string, key: string): OutboxInput => ({
          campaignId: null,
          contactId,
          senderId: rig.senderId,
          category,
          intent: { phoneNumberId: rig.phoneNumberId, template: { name, language: 'en_US' } },
          idempotencyKey: key,
          nextAttemptAt: rig.clock.now(),
        });
        await rig.store.insertOutbox(
          [row(ca.id, 'utility', UTILITY, 'u-a'), row(cb.id, 'utility', UTILITY, 'u-b'), row(ca.id, 'authentication', AUTH, 'auth-a')],
          rig.clock.now(),
        );
        await rig.advance(10 * MINUTE);

        const truth = rig.sim.groundTruth();
        const ours = truth.messages.filter((m) => m.template !== null);
        expect(ours.map((m) => [m.to, m.addressedBy, m.template]).sort()).toEqual(
          [
            [a.phone, 'user_id', UTILITY],
            [b.phone, 'user_id', UTILITY],
          ].sort(),
        );
        expect(ours.every((m) => m.status === 'delivered' || m.status === 'read')).toBe(true);
        // The statuses (no number, or "", beside the BSUID) were applied to the same two contacts.
        expect(await rig.store.listQuarantinedInbox(0, 10)).toEqual([]);
        for (const user of [a, b]) expect((await rig.store.findContact({ bsuid: user.userId }))?.id).toBeDefined();
        const contacts = await rig.store.listContacts(0, 100);
        expect(contacts.filter((c) => c.bsuid !== null).map((c) => c.id)).toEqual([ca.id, cb.id]);
        expect(contacts.filter((c) => c.waId === '' || c.phoneE164 === '+')).toEqual([]);
        // The authentication template was refused by the decision, before any request.
        expect(truth.syncErrors[131062] ?? 0).toBe(0);
        expect(decisions(await rig.store.contactTimeline(ca.id, 50))).toContain('skip:needs_phone_number');
      });
    },
  );
});
