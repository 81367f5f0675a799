import { describe, expect, it } from 'vitest';
import { importContactRecords } from '../src/app/import-contact-records.js';
import { DEFAULT_POLICY } from '../src/core/policy.js';
import { body, PHONE_NUMBER_ID, startApi, T0 } from './api-harness.js';
import { BACKENDS } from './store-backends.js';

interface Issues {
  error: string;
  issues: Array<{ path: string; message: string }>;
}

describe.each(BACKENDS)('REST API: one-off messages ($name)', (backend) => {
  it('queues a template message like pacer send and returns the current decision; the same key queues once', async () => {
    const rig = await startApi(backend);
    await importContactRecords(
      rig.store,
      [{ phoneE164: '+447911123456', name: null, tags: [], attributes: {}, consent: { utility: true } }],
      'test',
      DEFAULT_POLICY,
      T0 - 1000,
    );
    const message = {
      to: '+44 7911 123456',
      category: 'utility',
      template: { name: 'order_update', language: 'en_GB' },
      idempotencyKey: 'order-42',
    };
    const first = await rig.call('POST', '/api/v1/messages', { body: message });
    expect(first.status).toBe(202);
    expect(first.json).toMatchObject({
      queued: true,
      idempotencyKey: 'order-42',
      category: 'utility',
      decision: { kind: 'send', until: null },
    });
    expect(first.text).not.toContain('7911123456');
    const contactId = body<{ contactId: number }>(first).contactId;
    expect(await rig.store.findContact({ phoneE164: '+447911123456' })).toMatchObject({ id: contactId });
    const again = await rig.call('POST', '/api/v1/messages', { body: message });
    expect(again).toMatchObject({ status: 200, json: { queued: false, idempotencyKey: 'order-42' } });
    const [row] = await rig.store.claimDue({ owner: 't', now: T0, leaseMs: 60_000, limit: 10 });
    expect(row).toMatchObject({
      contactId,
      campaignId: null,
      category: 'utility',
      idempotencyKey: 'order-42',
      intent: { phoneNumberId: PHONE_NUMBER_ID, template: { name: 'order_update', language: 'en_GB' } },
    });
  });

  it('creates the contact for a new number and generates a key; a service text outside the window is held', async () => {
    const rig = await startApi(backend);
    const r = await rig.call('POST', '/api/v1/messages', { body: { to: '14155550123', category: 'service', text: 'Your table is ready' } });
    expect(r.status).toBe(202);
    expect(body<{ idempotencyKey: string }>(r).idempotencyKey).toMatch(/^api-/);
    expect(body<{ decision: { kind: string } }>(r).decision.kind).not.toBe('send');
    expect(await rig.store.findContact({ phoneE164: '+14155550123' })).not.toBeNull();
  });

  it('names the field at fault', async () => {
    const rig = await startApi(backend);
    const cases: Array<[unknown, string[]]> = [
      [{ category: 'utility', template: { name: 'x' } }, ['to']],
      [{ to: '+447700900123', category: 'newsletter', template: { name: 'x' } }, ['category']],
      [{ to: '+447700900123', category: 'utility', template: { name: '' } }, ['template.name']],
      [{ to: '+447700900123', category: 'utility', template: { name: 'x' }, text: 'hi' }, ['template']],
      [{ to: '+447700900123', category: 'utility' }, ['template']],
      [{ to: '+447700900123', category: 'utility', text: 'hi' }, ['category']],
      [{ to: '+447700900123', category: 'service', template: { name: 'x' } }, ['category']],
      [{ to: '+12', category: 'utility', template: { name: 'x' } }, ['to']],
    ];
    for (const [payload, paths] of cases) {
      const r = await rig.call('POST', '/api/v1/messages', { body: payload });
      expect(r.status, JSON.stringify(payload)).toBe(400);
      const b = body<Issues>(r);
      expect(b.error).toBe('invalid_body');
      expect(
        b.issues.map((i) => i.path),
        JSON.stringify(payload),
      ).toEqual(paths);
      expect(b.issues.every((i) => i.message.length > 0)).toBe(true);
    }
    expect(await rig.store.outboxTotals()).toMatchObject({ byStatus: { queued: 0 } });
  });

  it('answers 503 when no sending number is configured', async () => {
    const rig = await startApi(backend, { phoneNumberId: null });
    const r = await rig.call('POST', '/api/v1/messages', { body: { to: '+447700900123', category: 'utility', template: { name: 'x' } } });
    expect(r).toMatchObject({ status: 503, json: { error: 'no_sender_configured' } });
  });
});
