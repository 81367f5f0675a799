import { describe, expect, it } from 'vitest';
import { Dispatcher } from '../src/app/dispatcher.js';
import { importContactRecords } from '../src/app/import-contact-records.js';
import { DEFAULT_POLICY } from '../src/core/policy.js';
import type { SendRequest, SendResult } from '../src/ports/cloud-api.js';
import { VirtualClock } from '../src/ports/clock.js';
import type { LogFields, Logger } from '../src/ports/logger.js';
import { StoreError, type Store } from '../src/ports/store.js';
import { accepted } from './scripted-cloud-api.js';
import { seedSenderAndTemplate } from './seed-sender.js';
import { BACKENDS } from './store-backends.js';

const T0 = Date.UTC(2026, 2, 2, 9, 0, 0);
const NUMBER = '106540352242922';

/** One contact who consents to utility messages, the template, the number, and one row for them due now. */
async function seedOneRow(store: Store): Promise<number> {
  const [contactId] = (
    await importContactRecords(
      store,
      [{ phoneE164: '+447911123456', name: 'Ada', tags: [], attributes: {}, consent: { utility: true, marketing: false } }],
      'test',
      DEFAULT_POLICY,
      T0,
    )
  ).ids;
  const senderId = await seedSenderAndTemplate(store, NUMBER, { name: 'order_update', category: 'utility' }, T0);
  const { inserted } = await store.insertOutbox(
    [
      {
        campaignId: null,
        contactId: contactId!,
        senderId,
        category: 'utility',
        intent: { phoneNumberId: NUMBER, template: { name: 'order_update', language: 'en_US' } },
        idempotencyKey: 'one',
        nextAttemptAt: T0,
      },
    ],
    T0,
  );
  if (inserted !== 1) throw new Error(`seed: ${inserted} rows inserted`);
  return 1; // the first row of a fresh store
}

function warnings(): Logger & { warned: Array<{ message: string; fields: LogFields | undefined }> } {
  const warned: Array<{ message: string; fields: LogFields | undefined }> = [];
  const none = (): void => undefined;
  return { warned, error: none, info: none, debug: none, warn: (message, fields) => void warned.push({ message, fields }) };
}

/** A pass on the shared bucket: it takes 100 ms of the number's 80 a second (8) and uses one. */
function dispatcher(store: Store, send: (r: SendRequest) => Promise<SendResult>, logger?: Logger): Dispatcher {
  return new Dispatcher(
    { store, api: { send, close: async () => undefined }, policy: DEFAULT_POLICY, clock: new VirtualClock(T0), random: () => 0.5, logger },
    { owner: 'spare', phoneNumberId: NUMBER, mps: 80, leaseMs: 60_000, batchSize: 80, pace: { phoneNumberId: NUMBER, burstMs: 100 } },
  );
}

describe.each(BACKENDS)('dispatcher: the budget a pass does not use ($name)', (backend) => {
  it('goes back while the requests go: a send does not wait for it', async () => {
    const store = await backend.open();
    const rowId = await seedOneRow(store);
    const order: string[] = [];
    const watched: Store = {
      ...store,
      returnPace: async (key, tokens, burst) => {
        order.push('giving back');
        await new Promise((resolve) => setImmediate(resolve)); // a round trip to the database
        await store.returnPace(key, tokens, burst);
        order.push('given back');
      },
    };
    const result = await dispatcher(watched, async () => {
      order.push('request');
      return accepted(1);
    }).tick();
    expect(result.sent).toBe(1);
    expect(order).toEqual(['giving back', 'request', 'given back']);
    expect(await store.getOutbox(rowId)).toMatchObject({ status: 'sent', outcome: 'accepted' });
    // And it did go back: 8 taken, 1 used, so 7 remain for the next pass (the bucket is not refilled at T0).
    expect(await store.takePace({ key: `sender:${NUMBER}`, want: 80, perSecond: 80, burst: 8, now: T0 })).toMatchObject({ granted: 7 });
  });

  it('failing to go back still sends the claimed row and records its answer, with a warning', async () => {
    const store = await backend.open();
    const rowId = await seedOneRow(store);
    const logger = warnings();
    const failing: Store = {
      ...store,
      returnPace: () => Promise.reject(new StoreError('unavailable', 'returnPace', 'connection lost')),
    };
    const requests: SendRequest[] = [];
    const result = await dispatcher(
      failing,
      async (r) => {
        requests.push(r);
        return accepted(1);
      },
      logger,
    ).tick();
    expect(result).toMatchObject({ claimed: 1, sent: 1 });
    expect(requests).toHaveLength(1);
    // Recorded as sent, not left in `sending` for the lease sweep to mark unknown.
    expect(await store.getOutbox(rowId)).toMatchObject({ status: 'sent', outcome: 'accepted', wamid: 'wamid.1' });
    expect(logger.warned).toEqual([{ message: 'returning unused send budget failed', fields: expect.objectContaining({}) as LogFields }]);
  });
});
