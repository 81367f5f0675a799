import { describe, expect, it } from 'vitest';
import { parseWebhook } from '../src/adapters/webhook/parse-webhook.js';
import { processInbox } from '../src/app/process-inbox.js';
import { loadContactState } from '../src/app/update-contact-state.js';
import { listQuarantine, replayQuarantine } from '../src/app/webhook-quarantine.js';
import { DEFAULT_POLICY } from '../src/core/policy.js';
import { runCli } from '../src/main/cli.js';
import { BACKENDS } from './store-backends.js';

const NOW = Date.UTC(2026, 0, 5, 9);
const clock = { now: () => NOW };
const stop = (waId: string) =>
  Buffer.from(
    JSON.stringify({
      object: 'whatsapp_business_account',
      entry: [
        {
          id: '1',
          changes: [
            {
              field: 'user_preferences',
              value: {
                messaging_product: 'whatsapp',
                metadata: { display_phone_number: '1', phone_number_id: '1' },
                contacts: [{ wa_id: waId }],
                user_preferences: [
                  {
                    wa_id: waId,
                    detail: 'User requested to stop marketing messages',
                    category: 'marketing_messages',
                    value: 'stop',
                    timestamp: NOW / 1000,
                  },
                ],
              },
            },
          ],
        },
      ],
    }),
  );

describe.each(BACKENDS)('webhook quarantine and replay ($name)', (backend) => {
  it('keeps a quarantined payload with its reason and applies it when replayed after a fix', async () => {
    const store = await backend.open();
    const good = await store.appendInbox({ raw: stop('447700900123'), receivedAt: NOW, signatureOk: true });
    const bad = await store.appendInbox({
      raw: Buffer.from('{"object":"whatsapp_business_account","entry":"oops"}'),
      receivedAt: NOW,
      signatureOk: true,
    });
    // As if a processing bug had quarantined the good payload: nothing of it was applied.
    await store.quarantineInbox(good, 'processing failed: a bug', NOW);
    expect(await processInbox({ store, policy: DEFAULT_POLICY, clock, random: () => 0, parse: parseWebhook })).toMatchObject({
      rows: 1,
      quarantined: 1,
    });
    const listed = await store.listQuarantinedInbox(0, 10);
    expect(listed.map((r) => r.id)).toEqual([good, bad]);
    expect(listed[1]?.quarantineReason).toMatch(/entry/);

    expect(await store.releaseQuarantine([good])).toBe(1);
    expect(await processInbox({ store, policy: DEFAULT_POLICY, clock, random: () => 0, parse: parseWebhook })).toMatchObject({
      rows: 1,
      quarantined: 0,
    });
    const contact = await store.findContact({ waId: '447700900123' });
    expect((await loadContactState(store, contact?.id ?? -1)).marketing.stopped).not.toBeNull();
    expect((await store.listQuarantinedInbox(0, 10)).map((r) => r.id)).toEqual([bad]);
  });

  it('replays through a running pump by waking it, only when something was released, and lists without bodies', async () => {
    const store = await backend.open();
    const id = await store.appendInbox({ raw: stop('447700900125'), receivedAt: NOW, signatureOk: false });
    await store.quarantineInbox(id, 'processing failed: a bug', NOW);
    expect(await listQuarantine(store, 0, 10)).toEqual([
      { id, receivedAt: NOW, bytes: stop('447700900125').byteLength, signed: false, reason: 'processing failed: a bug' },
    ]);
    expect(await listQuarantine(store, id, 10)).toEqual([]);
    let kicks = 0;
    const pump = { kind: 'pump', kick: () => void kicks++ } as const;
    expect(await replayQuarantine(store, [id + 1], pump)).toEqual({ released: 0, processed: 0, items: 0, quarantined: 0 });
    expect(kicks).toBe(0);
    expect(await replayQuarantine(store, null, pump)).toEqual({ released: 1, processed: 0, items: 0, quarantined: 0 });
    expect(kicks).toBe(1);
    // Nothing was processed here: the pump does it.
    expect(await store.listUnprocessedInbox(0, 10)).toMatchObject([{ id }]);
  });
});

describe('pacer webhooks', () => {
  it('lists the quarantine and replays it, with usage errors named', async () => {
    const backend = BACKENDS.find((b) => b.name === 'sqlite');
    if (!backend) throw new Error('sqlite backend expected');
    const place = backend.place();
    const store = place.open();
    await store.migrate();
    const id = await store.appendInbox({ raw: stop('447700900124'), receivedAt: NOW, signatureOk: true });
    await store.quarantineInbox(id, 'processing failed: a bug', NOW);
    process.env.PACER_DATA_DIR = place.options.dataDir;
    try {
      const out: string[] = [];
      expect(
        await runCli(
          ['webhooks', 'quarantine', '--json'],
          (t) => out.push(t),
          () => undefined,
        ),
      ).toBe(0);
      expect(JSON.parse(out.join(''))).toMatchObject([{ id, reason: 'processing failed: a bug', signed: true }]);
      expect(
        await runCli(
          ['webhooks', 'replay'],
          () => undefined,
          () => undefined,
        ),
      ).toBe(2);
      const replayed: string[] = [];
      expect(
        await runCli(
          ['webhooks', 'replay', '--all', '--json'],
          (t) => replayed.push(t),
          () => undefined,
        ),
      ).toBe(0);
      expect(JSON.parse(replayed.join(''))).toEqual({ released: 1, processed: 1, items: 1, quarantined: 0 });
    } finally {
      delete process.env.PACER_DATA_DIR;
    }
  });
});
