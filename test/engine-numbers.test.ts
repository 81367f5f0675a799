import { describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../src/adapters/simulator/index.js';
import { seededRandom } from '../src/adapters/simulator/prng.js';
import { importContactRecords } from '../src/app/import-contact-records.js';
import { DEFAULT_POLICY } from '../src/core/policy.js';
import { MINUTE, type Millis } from '../src/core/time.js';
import { startEngine, type Engine } from '../src/main/engine.js';
import { VirtualClock } from '../src/ports/clock.js';
import type { OutboxInput, Store } from '../src/ports/store.js';
import { attemptsByRow } from './engine-rig.js';
import { BACKENDS } from './store-backends.js';
import { plainTemplates } from './plain-templates.js';

const SECRET = 'numbers-test-secret';
const START: Millis = Date.UTC(2026, 2, 2, 8, 0, 0);
const NUMBERS = [
  { phoneNumberId: '106540352242922', displayPhoneNumber: '15550783881' },
  { phoneNumberId: '209871350014557', displayPhoneNumber: '15550783882' },
] as const;

/** One engine per business number, each with the simulator of its own number, all on one store. */
async function startPair(store: Store, clock: VirtualClock): Promise<{ engines: Engine[]; sims: Simulator[] }> {
  const engines: Engine[] = [];
  const sims: Simulator[] = [];
  for (const [k, number] of NUMBERS.entries()) {
    engines.push(
      await startEngine({
        store,
        clock,
        policy: DEFAULT_POLICY,
        random: seededRandom(3 + k),
        http: { host: '127.0.0.1', port: 0, appSecrets: [SECRET], verifyToken: 'numbers-test', mode: 'production' },
        worker: { owner: `numbers-worker-${k}`, mps: 20 },
        cloudApi: async (url) => {
          // A seed of its own: message ids never collide between the two numbers.
          const sim = await startSimulator(
            {
              seed: 4 + k,
              templates: plainTemplates(),
              ...number,
              population: { size: 40 },
              appSecret: SECRET,
              callbackUrl: `${url}/webhooks/whatsapp`,
            },
            { clock },
          );
          sims.push(sim);
          return { baseUrl: sim.url, apiVersion: 'v24.0', phoneNumberId: number.phoneNumberId, accessToken: sim.config.accessToken };
        },
      }),
    );
  }
  return { engines, sims };
}

describe.each(BACKENDS)('two numbers on one $name store', (backend) => {
  it("sends each number's rows only from that number, through the process configured for it", async () => {
    const store = await backend.open();
    const clock = new VirtualClock(START);
    const { engines, sims } = await startPair(store, clock);
    try {
      const [simA, simB] = sims as [Simulator, Simulator];
      const { ids } = await importContactRecords(
        store,
        [...simA.users, ...simB.users].map((u) => ({
          phoneE164: `+${u.phone}`,
          name: u.name,
          tags: [],
          attributes: {},
          consent: { utility: true },
        })),
        'numbers-test',
        DEFAULT_POLICY,
        clock.now(),
      );
      await store.upsertTemplates(
        [{ name: 'order_update', language: 'en_US', category: 'utility', status: 'approved', quality: 'GREEN', pausedUntil: null }],
        clock.now(),
      );
      // Each number's customers get an order update from it; the rows of the two numbers interleave.
      const rows: OutboxInput[] = ids.map((contactId, i) => ({
        campaignId: null,
        contactId,
        senderId: null,
        category: 'utility' as const,
        intent: { phoneNumberId: NUMBERS[i < 40 ? 0 : 1].phoneNumberId, template: { name: 'order_update', language: 'en_US' } },
        idempotencyKey: `order-${i}`,
        nextAttemptAt: clock.now() + (i % 40) * 100,
      }));
      expect((await store.insertOutbox(rows, clock.now())).inserted).toBe(80);
      await simA.advance(10 * MINUTE);
      for (const e of engines) await e.pump.drain();

      for (const [k, sim] of [simA, simB].entries()) {
        const truth = sim.groundTruth();
        // A request on another number's path would have been refused (100) by this number's simulator.
        expect(truth.syncErrors).toEqual({});
        const sent = await Promise.all([...attemptsByRow(truth.messages).keys()].map((id) => store.getOutbox(id)));
        expect(sent).toHaveLength(40);
        const numbers = sent.map((row) => (row?.intent as { phoneNumberId?: unknown } | undefined)?.phoneNumberId);
        expect(new Set(numbers)).toEqual(new Set([NUMBERS[k]?.phoneNumberId]));
      }
    } finally {
      for (const e of engines) await e.stop();
      for (const s of sims) await s.stop();
    }
  });
});
