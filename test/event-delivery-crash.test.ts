import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, it, onTestFinished } from 'vitest';
import type { OpenStoreOptions } from '../src/adapters/storage/open-store.js';
import { eventually } from './await-state.js';
import { firstOfEach, startEventReceiver } from './event-receiver.js';
import { BACKENDS } from './store-backends.js';

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const EVENTS = 40;
const CONTACTS = 5;

interface Child {
  process: ChildProcess;
  output(): string;
}

function start(options: OpenStoreOptions, record: number): Child {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'test/event-delivery-process.ts', JSON.stringify(options), String(record), String(CONTACTS)],
    { cwd: process.cwd(), stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (out += c.toString()));
  onTestFinished(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  return { process: child, output: () => out };
}

async function kill(child: Child): Promise<void> {
  const gone = once(child.process, 'exit');
  child.process.kill('SIGKILL');
  await gone;
}

const until = async (what: string, check: () => boolean | Promise<boolean>, child: Child) => {
  if (!(await eventually(check, Date.now() + 60_000, 20)))
    throw new Error(`timed out waiting for ${what}; the process said: ${child.output()}`);
};

describe.each(BACKENDS)('a delivering process killed between recording and delivery ($name)', (backend) => {
  it(
    'loses no event: after a restart every one arrives, once each after de-duplication, in order per contact',
    { timeout: 120_000 },
    async () => {
      const place = backend.place();
      const store = place.open();
      await store.migrate();
      const receiver = await startEventReceiver(SECRET);
      onTestFinished(() => receiver.close());
      await store.createEventSubscription(
        { url: receiver.url, secret: SECRET, eventTypes: ['*'], campaignId: null, phoneNumberId: null, description: null },
        Date.now(),
      );
      // The first few are answered; the rest are held unanswered, so the process dies with deliveries
      // claimed and in flight, others recorded and never claimed, and perhaps one answered but not settled.
      receiver.hangAfter = 6;
      const first = start(place.options, EVENTS);
      await until(
        'every event recorded and requests held',
        () => first.output().includes(`recorded ${EVENTS}`) && receiver.requests > 6,
        first,
      );
      await kill(first);
      const delivered = await store.listEventDeliveries({ status: 'delivered', limit: 1000 });
      expect(delivered.length).toBeLessThan(EVENTS);
      expect(await store.listEventDeliveries({ status: 'pending', limit: 1000 })).toHaveLength(EVENTS - delivered.length);

      receiver.hangAfter = null;
      const second = start(place.options, 0);
      await until('every event delivered', () => new Set(receiver.received.map((r) => r.webhookId)).size === EVENTS, second);
      await until(
        'every delivery settled',
        async () => (await store.listEventDeliveries({ status: 'delivered', limit: 1000 })).length === EVENTS,
        second,
      );
      await kill(second);

      expect(receiver.unverified).toBe(0);
      const processed = firstOfEach(receiver.received);
      expect(processed.map((r) => Number(r.data['n'])).sort((a, b) => a - b)).toEqual(Array.from({ length: EVENTS }, (_, i) => i + 1));
      for (let contact = 1; contact <= CONTACTS; contact++) {
        const got = processed.filter((r) => r.data['contactId'] === contact).map((r) => Number(r.data['n']));
        expect(got, `contact ${contact}`).toEqual([...got].sort((a, b) => a - b));
      }
    },
  );
});
