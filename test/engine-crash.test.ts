import { describe, expect, it } from 'vitest';
import { createCloudApiClient } from '../src/adapters/cloud-api/cloud-api-client.js';
import { buildSendRequest, parseOutboxIntent } from '../src/app/outbox-intent.js';
import { HOUR, MINUTE, SECOND } from '../src/core/time.js';
import { BACKENDS } from './store-backends.js';
import { attemptsByRow, onlyCountries, withRig } from './engine-rig.js';

const CRASHED = 'crashed-worker';

describe.each(BACKENDS)('a worker that crashed mid-send, on $name', (backend) => {
  it('leaves rows the sweep marks unknown, never re-sent blindly; a status webhook with our callback data reconciles them', async () => {
    // Webhooks take minutes, so the crashed worker's leases expire and are swept before any status arrives.
    const sim = {
      population: { size: 20, countries: onlyCountries('GB', 'DE'), notOnWhatsAppRate: 0 },
      webhooks: { latencyMs: { min: 8 * MINUTE, max: 10 * MINUTE } },
      reactions: { deliveredDelayMs: { min: SECOND, max: 30 * SECOND } },
    };
    await withRig(backend, { sim }, async (rig) => {
      const [reached, lost, claimedOnly] = rig.sim.users;
      if (reached === undefined || lost === undefined || claimedOnly === undefined) throw new Error('too few users');
      expect(await rig.sendUtility([reached, lost, claimedOnly], 'crash')).toBe(3);

      // The crashed worker: it leased all three, recorded the intent of two, and one request got out.
      const now = rig.clock.now();
      const claimed = await rig.store.claimDue({ owner: CRASHED, now, leaseMs: MINUTE, limit: 10 });
      expect(claimed).toHaveLength(3);
      const rowOf = (contactId: number) => {
        const row = claimed.find((r) => r.contactId === contactId);
        if (row === undefined) throw new Error(`no claimed row for contact ${contactId}`);
        return row;
      };
      const [rowReached, rowLost, rowClaimed] = [reached, lost, claimedOnly].map((u) => rowOf(rig.contactOf(u)));
      if (rowReached === undefined || rowLost === undefined || rowClaimed === undefined) throw new Error('rows missing');
      expect(await rig.store.recordIntent(rowReached.id, CRASHED, now)).toBe(true);
      expect(await rig.store.recordIntent(rowLost.id, CRASHED, now)).toBe(true);
      const api = createCloudApiClient({
        baseUrl: rig.sim.url,
        apiVersion: 'v24.0',
        phoneNumberId: rig.phoneNumberId,
        accessToken: rig.sim.config.accessToken,
      });
      try {
        const sent = await api.send(
          buildSendRequest(
            rowReached.id,
            parseOutboxIntent(rowReached.intent, rowReached.id),
            { kind: 'phone', phone: reached.phone },
            'messages',
          ),
        );
        expect(sent.kind).toBe('accepted');
      } finally {
        await api.close();
      }

      // The running engine leaves the crashed worker's rows alone while they are leased...
      await rig.advance(MINUTE / 2);
      expect((await rig.store.getOutbox(rowLost.id))?.status).toBe('sending');
      expect((await rig.store.getOutbox(rowClaimed.id))?.status).toBe('leased');
      // ...and sweeps them once the lease has expired: the two that may have gone out become unknown.
      await rig.advance(6 * MINUTE);
      expect(await rig.store.getOutbox(rowLost.id)).toMatchObject({ status: 'unknown', leaseExpiresAt: null });
      expect((await rig.store.getOutbox(rowReached.id))?.status).toBe('unknown');
      expect(rig.sim.groundTruth().requests).toBe(2);

      await rig.advance(3 * HOUR);
      const truth = rig.sim.groundTruth();
      const attempts = attemptsByRow(truth.messages);
      // Swept but never started: safe to claim again, and the engine sent it once.
      expect(attempts.get(rowClaimed.id)).toHaveLength(1);
      expect(await rig.store.getOutbox(rowClaimed.id)).toMatchObject({
        status: 'sent',
        outcome: expect.stringMatching(/^(delivered|read)$/),
      });
      // The request that got out: one message, matched to its row by the callback data in its statuses.
      const real = attempts.get(rowReached.id);
      expect(real).toHaveLength(1);
      expect(await rig.store.getOutbox(rowReached.id)).toMatchObject({ status: 'sent', wamid: real?.[0]?.wamid, attempts: 1 });
      expect(['delivered', 'read']).toContain((await rig.store.getOutbox(rowReached.id))?.outcome);
      // The one whose fate is unknown stays unknown: never sent again on a guess.
      expect(attempts.has(rowLost.id)).toBe(false);
      expect(await rig.store.getOutbox(rowLost.id)).toMatchObject({ status: 'unknown', wamid: null, outcome: null });
      expect(truth.requests).toBe(2);
    });
  });

  it('marks a send whose connection was reset unknown once its lease expires, and never re-sends it', async () => {
    const sim = { population: { size: 20, countries: onlyCountries('GB', 'DE'), notOnWhatsAppRate: 0 } };
    await withRig(backend, { sim }, async (rig) => {
      const id = await rig.createCampaign();
      await rig.startCampaign(id);
      rig.sim.faults.inject({ kind: 'connection_reset' }, { count: 1 });
      await rig.advance(HOUR);

      const truth = rig.sim.groundTruth();
      const rows = await rig.outbox(id);
      const attempts = attemptsByRow(truth.messages);
      const lost = rows.filter((r) => !attempts.has(r.id));
      // The reset request may have reached Meta for all Pacer knows: its row waits, marked unknown.
      expect(lost).toHaveLength(1);
      expect(lost[0]).toMatchObject({ status: 'unknown', attempts: 1, wamid: null, outcome: null, leaseExpiresAt: null });
      expect(truth.messages).toHaveLength(rows.length - 1);
      expect([...attempts.values()].filter((a) => a.length > 1)).toEqual([]);
      expect((await rig.store.campaignCounters(id)).unknown).toBe(1);
    });
  });
});
