import { afterEach, describe, expect, it } from 'vitest';
import { createCloudApiClient } from '../src/adapters/cloud-api/cloud-api-client.js';
import { startSimulator, type Simulator } from '../src/adapters/simulator/index.js';
import type { CloudApi } from '../src/ports/cloud-api.js';
import { API_VERSION, APP_SECRET } from './simulator-harness.js';
import { TestReceiver } from './simulator-test-receiver.js';
import { plainTemplates } from './plain-templates.js';

let sim: Simulator | null = null;
let receiver: TestReceiver | null = null;
let client: CloudApi | null = null;
afterEach(async () => {
  await client?.close();
  await sim?.stop();
  await receiver?.stop();
  sim = null;
  receiver = null;
  client = null;
});

describe('simulator on real time (as `pacer simulator` runs it)', () => {
  it('posts the statuses of a send on its own, with millisecond delays configured', async () => {
    receiver = await new TestReceiver([APP_SECRET]).start();
    const fast = { min: 1, max: 2 };
    sim = await startSimulator({
      seed: 71,
      templates: plainTemplates(),
      appSecret: APP_SECRET,
      callbackUrl: receiver.url,
      population: { size: 20, notOnWhatsAppRate: 0 },
      reactions: { sentDelayMs: fast, deliveredDelayMs: fast, readDelayMs: fast },
      webhooks: { latencyMs: fast, outOfOrderRate: 0 },
    });
    client = createCloudApiClient({
      baseUrl: sim.url,
      apiVersion: API_VERSION,
      phoneNumberId: sim.config.phoneNumberId,
      accessToken: sim.config.accessToken,
    });
    const result = await client.send({
      type: 'template',
      endpoint: 'messages',
      to: { kind: 'phone', phone: sim.users[0]!.phone },
      messageId: 'rt-1',
      template: { name: 'login_code', language: 'en_US' },
    });
    expect(result.kind).toBe('accepted');
    // Awaits the arrival itself: the receiver wakes this on every POST, nothing polls or sleeps.
    await receiver.waitFor((r) => r.statuses().some((s) => s.status === 'sent'));
    expect(receiver.statuses()[0]).toMatchObject({ biz_opaque_callback_data: 'rt-1', recipient_id: sim.users[0]!.phone });
    expect(receiver.received.every((r) => r.check.ok)).toBe(true);
    expect(() => sim!.advance(1_000)).toThrow(/VirtualClock/);
  });
});
