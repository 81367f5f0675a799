import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseWebhook } from '../src/adapters/webhook/parse-webhook.js';
import { campaignAction } from '../src/app/campaign-actions.js';
import { processInbox } from '../src/app/process-inbox.js';
import { queueOneOffBroadcast, queueOneOffMessage } from '../src/app/queue-one-off-message.js';
import { startCampaign } from '../src/app/start-campaign.js';
import { createWorkSignal } from '../src/app/work-signal.js';
import { DEFAULT_POLICY } from '../src/core/policy.js';
import type { WorkQueued } from '../src/ports/work-signal.js';
import { BACKENDS } from './store-backends.js';
import { seedCampaign } from './store-seed.js';

const T0 = Date.UTC(2026, 2, 2, 8, 0, 0);
const FIXTURES = path.resolve(import.meta.dirname, 'fixtures/meta-webhooks');
/** The user who writes in the fixture (`from`). */
const WRITER = '972987654321';

function recording(): WorkQueued & { heard: Array<number | undefined> } {
  const heard: Array<number | undefined> = [];
  return { heard, notifyQueued: (at) => void heard.push(at) };
}

describe.each(BACKENDS)('use cases that queue work say so ($name)', (backend) => {
  it('a one-off message and a broadcast, once each: a key already queued says nothing', async () => {
    const store = await backend.open();
    const signal = recording();
    const message = {
      to: '+447911123456',
      category: 'utility' as const,
      template: { name: 'order_update', language: 'en_US' },
      phoneNumberId: 'pn-1',
      idempotencyKey: 'k1',
    };
    expect(await queueOneOffMessage(store, message, DEFAULT_POLICY, T0, signal)).toMatchObject({ ok: true, queued: true });
    expect(await queueOneOffMessage(store, message, DEFAULT_POLICY, T0 + 1, signal)).toMatchObject({ ok: true, queued: false });
    const contactId = (await store.findContact({ phoneE164: '+447911123456' }))?.id ?? -1;
    const broadcast = { category: 'utility' as const, template: message.template, phoneNumberId: 'pn-1' };
    expect(await queueOneOffBroadcast(store, [{ contactId, idempotencyKey: 'b1' }], broadcast, T0 + 2, signal)).toEqual({
      ok: true,
      queued: 1,
    });
    expect(await queueOneOffBroadcast(store, [{ contactId, idempotencyKey: 'b1' }], broadcast, T0 + 3, signal)).toEqual({
      ok: true,
      queued: 0,
    });
    expect(signal.heard).toEqual([T0, T0 + 2]);
  });

  it('a campaign started (when its rows fall due) or resumed; not one started while paused, nor a pause', async () => {
    const store = await backend.open();
    const signal = recording();
    const seed = await seedCampaign(store, T0, 2, 'draft');
    const scheduledAt = T0 + 3_600_000;
    const later = await store.createCampaign(
      {
        name: 'later',
        templateId: seed.templateId,
        senderId: seed.senderId,
        segment: {},
        scheduledAt,
        policyPreset: 'meta',
        status: 'draft',
      },
      T0,
    );
    await startCampaign(store, later, { phoneNumberId: 'pn-1' }, T0, signal);
    expect(signal.heard).toEqual([scheduledAt]);
    await campaignAction(store, later, 'pause', T0 + 1, signal);
    await startCampaign(store, later, { phoneNumberId: 'pn-1' }, T0 + 2, signal);
    expect(signal.heard).toEqual([scheduledAt]);
    await campaignAction(store, later, 'resume', T0 + 3, signal);
    expect(signal.heard).toEqual([scheduledAt, T0 + 3]);
  });

  it('a reply that wakes held rows, once its batch is committed; a webhook that queues nothing says nothing', async () => {
    const store = await backend.open();
    const signal = createWorkSignal();
    const heard: Array<number | null> = [];
    signal.onQueued((at) => heard.push(at));
    const seed = await seedCampaign(store, T0, 1);
    const { ids } = await store.upsertContacts([{ phoneE164: `+${WRITER}`, waId: WRITER }], T0);
    const contactId = ids[0] ?? -1;
    await store.insertOutbox(
      seed.rows(() => T0).map((row) => ({ ...row, contactId })),
      T0,
    );
    const fixtures = JSON.parse(readFileSync(path.join(FIXTURES, 'message.json'), 'utf8')) as Record<string, unknown>;
    const statuses = JSON.parse(readFileSync(path.join(FIXTURES, 'message_status.json'), 'utf8')) as Record<string, unknown>;
    const deps = { store, policy: DEFAULT_POLICY, clock: { now: () => T0 + 500 }, random: () => 0.5, parse: parseWebhook, signal };
    const append = (body: unknown) =>
      store.appendInbox({ raw: Buffer.from(JSON.stringify(body)), receivedAt: T0 + 500, signatureOk: true });

    await append(Object.values(statuses)[0]); // a status for a message we never sent: no row moves
    await processInbox(deps);
    expect(heard).toEqual([]);

    await store.transaction(async (tx) => {
      const [row] = await tx.claimDue({ owner: 't', now: T0, leaseMs: 60_000, limit: 1 });
      if (row === undefined) throw new Error('no row to hold');
      await tx.reschedule(row.id, 't', { status: 'held', until: null, capAttempt: false, errorCode: 131047 }, T0);
    });
    await append(fixtures['text']);
    await processInbox(deps);
    expect(heard).toEqual([T0 + 500]);
  });
});
