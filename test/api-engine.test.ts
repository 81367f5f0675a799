import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../src/adapters/simulator/index.js';
import { DEFAULT_POLICY } from '../src/core/policy.js';
import { MINUTE } from '../src/core/time.js';
import { startEngine } from '../src/main/engine.js';
import { VirtualClock } from '../src/ports/clock.js';
import { BACKENDS } from './store-backends.js';
import { plainTemplates } from './plain-templates.js';

const SECRET = 'api-engine-secret';
const ADMIN = 'api-engine-admin-token-0001';
const PHONE_NUMBER_ID = '106540352242922';

/** The API as `pacer serve` wires it, over a real socket: on the engine's server, sending through the dispatcher. */
describe.each(BACKENDS)('REST API inside the engine ($name)', (backend) => {
  it('queues a message over the API that the dispatcher sends, then shows its delivery on the timeline and in /metrics', async () => {
    const store = backend.place().open();
    await store.migrate();
    const clock = new VirtualClock(Date.UTC(2026, 2, 2, 8, 0, 0));
    let sim!: Simulator;
    const engine = await startEngine({
      store,
      clock,
      policy: DEFAULT_POLICY,
      random: () => 0.5,
      http: { host: '127.0.0.1', port: 0, appSecrets: [SECRET], verifyToken: null, mode: 'production' },
      worker: { owner: 'api-engine', mps: 20 },
      api: { adminToken: ADMIN, phoneNumberId: PHONE_NUMBER_ID },
      cloudApi: async (url) => {
        sim = await startSimulator(
          {
            seed: 3,
            templates: plainTemplates(),
            population: { size: 20 },
            appSecret: SECRET,
            phoneNumberId: PHONE_NUMBER_ID,
            callbackUrl: `${url}/webhooks/whatsapp`,
          },
          { clock },
        );
        return { baseUrl: sim.url, apiVersion: 'v24.0', phoneNumberId: PHONE_NUMBER_ID, accessToken: sim.config.accessToken };
      },
    });
    try {
      const call = async (method: 'GET' | 'POST', path: string, json?: unknown) => {
        const res = await request(`${engine.url}${path}`, {
          method,
          headers: { authorization: `Bearer ${ADMIN}`, ...(json === undefined ? {} : { 'content-type': 'application/json' }) },
          ...(json === undefined ? {} : { body: JSON.stringify(json) }),
        });
        const text = await res.body.text();
        return {
          status: res.statusCode,
          text,
          json: (res.headers['content-type'] ?? '').includes('json') ? (JSON.parse(text) as Record<string, unknown>) : null,
        };
      };
      // Simulated numbers are random digits: take one that is a valid number in its country.
      const user = sim.users.find((u) => parsePhoneNumberFromString(`+${u.phone}`)?.isValid() === true);
      if (user === undefined) throw new Error('no simulated user');
      const queued = await call('POST', '/api/v1/messages', {
        to: `+${user.phone}`,
        category: 'utility',
        template: { name: 'order_update', language: 'en_US' },
      });
      expect(queued.status, queued.text).toBe(202);
      const contactId = Number(queued.json?.['contactId']);
      // Consent first: without it the decision skips utility too.
      expect(queued.json?.['decision']).toMatchObject({ kind: 'skip' });
      expect(
        (await call('POST', `/api/v1/contacts/${contactId}/consent`, { category: 'utility', status: 'granted', source: 'api-test' }))
          .status,
      ).toBe(200);
      await engine.tick();
      await sim.advance(5 * MINUTE);
      await engine.pump.drain();
      const timeline = await call('GET', `/api/v1/contacts/${contactId}/timeline`);
      const items = (timeline.json?.['items'] ?? []) as Array<{ type: string; status?: string }>;
      expect(items.some((i) => i.type === 'message_event' && (i.status === 'delivered' || i.status === 'read'))).toBe(true);
      const metrics = await call('GET', '/metrics');
      expect(metrics.text).toMatch(/^pacer_outbox_outcomes\{outcome="(delivered|read)"\} 1$/m);
      expect(metrics.text).toMatch(/^pacer_webhooks_stored_total [1-9]\d*$/m);
    } finally {
      await engine.stop();
      await sim.stop();
      await store.close();
    }
  });
});
