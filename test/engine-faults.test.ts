import { describe, expect, it } from 'vitest';
import { body, messagesChange, status } from '../src/adapters/webhook/test-support.js';
import { signBody } from '../src/adapters/http/webhook-signature.js';
import { HOUR, MINUTE, SECOND } from '../src/core/time.js';
import { BACKENDS } from './store-backends.js';
import { APP_SECRET, attemptsByRow, onlyCountries, withRig, type Rig } from './engine-rig.js';

/** Posts a signed webhook to the engine, as Meta would, and waits until it has been processed. */
async function postWebhook(rig: Rig, payload: Record<string, unknown>): Promise<void> {
  const raw = JSON.stringify(payload);
  const res = await fetch(`${rig.engine.url}/webhooks/whatsapp`, {
    method: 'POST',
    body: raw,
    headers: { 'content-type': 'application/json', 'x-hub-signature-256': signBody(raw, APP_SECRET) },
  });
  expect(res.status).toBe(200);
  await rig.engine.pump.drain();
}

describe.each(BACKENDS)('transient refusals on $name', (backend) => {
  it('retries 131016, 5xx and 130429 refusals after a backoff, and each message is delivered once', async () => {
    // Uncapped countries, everyone reachable: every refusal here is one the test injected.
    const sim = { population: { size: 60, countries: onlyCountries('GB', 'DE'), notOnWhatsAppRate: 0, experimentRate: 0, stoppedRate: 0 } };
    await withRig(backend, { sim }, async (rig) => {
      const id = await rig.createCampaign();
      await rig.startCampaign(id);
      rig.sim.faults.inject({ kind: 'error_code', code: 131016 }, { count: 3 });
      rig.sim.faults.inject({ kind: 'http_5xx', status: 503 }, { count: 2 });
      rig.sim.faults.inject({ kind: 'error_code', code: 130429 }, { count: 2 });
      await rig.advance(3 * HOUR);

      const truth = rig.sim.groundTruth();
      // Faults apply one request each, so seven requests were refused and the rest went through.
      expect(truth.syncErrors).toEqual({ 2: 2, 130429: 2, 131016: 3 });
      expect(truth.accepted).toBe(60);
      const rows = await rig.outbox(id);
      const attempts = attemptsByRow(truth.messages);
      expect(rows).toHaveLength(60);
      for (const row of rows) {
        expect(attempts.get(row.id)).toHaveLength(1);
        expect(['delivered', 'read']).toContain(row.outcome);
      }
      // A refused row counted its attempt and kept the code it was refused with until it went through.
      expect(rows.filter((r) => r.attempts === 2)).toHaveLength(7);
      expect(rows.filter((r) => r.attempts > 2)).toEqual([]);
      // The sender backed off after 130429 and is sending again.
      expect((await rig.store.getSender(rig.phoneNumberId))?.state).not.toBe('stopped');
    });
  });

  it('retries a message that failed asynchronously with a transient code (131000) after a backoff', async () => {
    // The simulator's own statuses come late, so the failure below is the first word on the message.
    const sim = {
      population: { size: 5, countries: onlyCountries('GB') },
      webhooks: { latencyMs: { min: 10 * MINUTE, max: 15 * MINUTE } },
    };
    await withRig(backend, { sim }, async (rig) => {
      const [user] = rig.sim.users;
      if (user === undefined) throw new Error('no users');
      await rig.sendUtility([user], 'order-update');
      await rig.advance(5 * SECOND);
      const [row] = await rig.outbox(null);
      expect(row).toMatchObject({ status: 'sent', outcome: 'accepted', attempts: 1 });

      const failedAt = rig.clock.now();
      const failure = status(row?.wamid ?? '', 'failed', String(Math.floor(failedAt / 1000)), {
        recipient_id: user.phone,
        biz_opaque_callback_data: `pacer:${row?.id ?? 0}`,
        errors: [
          {
            code: 131000,
            title: 'Something went wrong',
            message: 'Something went wrong',
            error_data: { details: 'Message failed to send' },
          },
        ],
      });
      await postWebhook(rig, body([messagesChange({ statuses: [failure] })]));
      const requeued = await rig.store.getOutbox(row?.id ?? 0);
      expect(requeued).toMatchObject({ status: 'queued', lastErrorCode: 131000, wamid: null });
      expect(requeued?.nextAttemptAt).toBeGreaterThan(failedAt);

      await rig.advance(HOUR);
      const sends = attemptsByRow(rig.sim.groundTruth().messages).get(row?.id ?? 0) ?? [];
      expect(sends).toHaveLength(2);
      expect((sends[1]?.acceptedAt ?? 0) - failedAt).toBeGreaterThanOrEqual(rig.policy.transientBackoff.baseMs - SECOND);
      expect(await rig.store.getOutbox(row?.id ?? 0)).toMatchObject({ status: 'sent', attempts: 2, wamid: sends[1]?.wamid });
    });
  });
});
