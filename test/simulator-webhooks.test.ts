import { readdirSync, readFileSync } from 'node:fs';
import { fillPlaceholders } from './meta-fixture-placeholders.js';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createCloudApiClient } from '../src/adapters/cloud-api/cloud-api-client.js';
import { startSimulator } from '../src/adapters/simulator/index.js';
import { parseWebhook } from '../src/adapters/webhook/parse-webhook.js';
import { DAY, HOUR, SECOND } from '../src/core/time.js';
import { NewestFirstClock } from './newest-first-clock.js';
import {
  accepted,
  API_VERSION,
  APP_SECRET,
  ORDERLY_WEBHOOKS,
  ordinaryCappedUser,
  pickUser,
  sendTemplate,
  startHarness,
  type Harness,
} from './simulator-harness.js';
import { TestReceiver } from './simulator-test-receiver.js';
import { plainTemplates } from './plain-templates.js';

let h: Harness | null = null;
afterEach(async () => {
  await h?.close();
  h = null;
});

const FIXTURES = path.resolve(import.meta.dirname, 'fixtures/meta-webhooks');

describe('simulator webhooks: signatures', () => {
  it('signs every POST so the right secret verifies it', async () => {
    h = await startHarness({ seed: 41, population: { size: 50 } });
    accepted(await sendTemplate(h.client, pickUser(h.sim, ordinaryCappedUser).phone, 'sig-1', 'order_update'));
    await h.sim.advance(DAY);
    expect(h.receiver.received.length).toBeGreaterThan(0);
    expect(h.receiver.received.every((r) => r.check.ok && r.check.secretIndex === 0)).toBe(true);
  });

  it('fails verification with a wrong secret, and passes during rotation when one secret matches', async () => {
    h = await startHarness({ seed: 41, population: { size: 50 } }, {}, ['not-the-secret']);
    accepted(await sendTemplate(h.client, pickUser(h.sim, ordinaryCappedUser).phone, 'sig-2', 'order_update'));
    await h.sim.advance(DAY);
    expect(h.receiver.received.length).toBeGreaterThan(0);
    expect(h.receiver.received.every((r) => !r.check.ok && r.check.reason === 'mismatch')).toBe(true);
    await h.close();

    h = await startHarness({ seed: 41, population: { size: 50 } }, {}, ['old-secret', APP_SECRET]);
    accepted(await sendTemplate(h.client, pickUser(h.sim, ordinaryCappedUser).phone, 'sig-3', 'order_update'));
    await h.sim.advance(DAY);
    expect(h.receiver.received.every((r) => r.check.ok && r.check.secretIndex === 1)).toBe(true);
  });
});

describe('simulator webhooks: delivery like Meta’s', () => {
  it('redelivers the same bytes with growing gaps while the endpoint answers non-200', async () => {
    h = await startHarness({ seed: 42, population: { size: 50 }, webhooks: { ...ORDERLY_WEBHOOKS, retryBaseMs: 10 * SECOND } });
    let calls = 0;
    h.receiver.answer = () => (++calls <= 4 ? 500 : 200);
    accepted(await sendTemplate(h.client, h.sim.users[0]!.phone, 'retry-1', 'order_update'));
    await h.sim.advance(HOUR);
    const first = h.receiver.received[0]!;
    const same = h.receiver.received.filter((r) => r.raw.equals(first.raw));
    expect(same.length).toBeGreaterThanOrEqual(5);
    const gaps = same.slice(1, 5).map((r, i) => r.at - same[i]!.at);
    expect(gaps).toEqual([10 * SECOND, 20 * SECOND, 40 * SECOND, 80 * SECOND]);
    expect(h.sim.groundTruth().webhooks.failedAttempts).toBeGreaterThanOrEqual(4);
  });

  it('batches statuses, sends duplicates, reorders some and skips some `delivered`', async () => {
    h = await startHarness({
      seed: 43,
      population: { size: 300, readPropensity: { min: 0.8, max: 1 } },
      reactions: { skipDeliveredRate: 0.5 },
      webhooks: { batchRate: 1, duplicateRate: 0.5, outOfOrderRate: 0.5 },
    });
    const wamids: string[] = [];
    for (const u of h.sim.users.filter((x) => x.onWhatsApp).slice(0, 60)) {
      wamids.push(accepted(await sendTemplate(h.client, u.phone, `b-${u.index}`, 'order_update')).wamid);
    }
    await h.sim.advance(2 * DAY);
    const received = h.receiver.received;
    const statusCounts = received.map(
      (r) => r.body.entry.flatMap((e) => e.changes).flatMap((c) => (c.value.statuses as unknown[] | undefined) ?? []).length,
    );
    expect(Math.max(...statusCounts)).toBeGreaterThan(1);
    const raws = received.map((r) => r.raw.toString('base64'));
    expect(new Set(raws).size).toBeLessThan(raws.length);

    const order: Record<string, number> = { sent: 0, delivered: 1, read: 2 };
    const outOfOrder = wamids.filter((id) => {
      const seq = h!.receiver.statusesFor(id).map((s) => order[s.status] ?? 0);
      return seq.some((v, i) => i > 0 && v < seq[i - 1]!);
    });
    expect(outOfOrder.length).toBeGreaterThan(0);
    const readWithoutDelivered = wamids.filter((id) => {
      const seen = new Set(h!.receiver.statusesFor(id).map((s) => s.status));
      return seen.has('read') && !seen.has('delivered');
    });
    expect(readWithoutDelivered.length).toBeGreaterThan(0);
  });

  it('is deterministic: the same seed and requests give byte-identical webhooks', async () => {
    const run = async (seed: number): Promise<string[]> => {
      const harness = await startHarness({ seed, population: { size: 100 } });
      for (const u of harness.sim.users.slice(0, 30)) await sendTemplate(harness.client, u.phone, `d-${u.index}`);
      await harness.sim.advance(2 * DAY);
      const bodies = harness.receiver.received.map((r) => r.raw.toString('utf8'));
      await harness.close();
      return bodies;
    };
    const a = await run(44);
    expect(a.length).toBeGreaterThan(30);
    expect(await run(44)).toEqual(a);
    expect(await run(45)).not.toEqual(a);
  });
});

describe('simulator webhooks: whatever order same-moment timers run in (as on real time)', () => {
  it('posts every status it records: a read that skips `delivered` is never lost', async () => {
    const clock = new NewestFirstClock();
    const receiver = await new TestReceiver([APP_SECRET], () => clock.now()).start();
    const sim = await startSimulator(
      {
        seed: 48,
        templates: plainTemplates(),
        appSecret: APP_SECRET,
        callbackUrl: receiver.url,
        // Utility messages to readers are always read; every read comes in place of `delivered`, in
        // the same millisecond as the delivery it follows.
        population: { size: 40, notOnWhatsAppRate: 0, readPropensity: { min: 0.9, max: 1 } },
        reactions: { skipDeliveredRate: 1 },
        webhooks: ORDERLY_WEBHOOKS,
      },
      { clock },
    );
    const client = createCloudApiClient({
      baseUrl: sim.url,
      apiVersion: API_VERSION,
      phoneNumberId: sim.config.phoneNumberId,
      accessToken: sim.config.accessToken,
      scheduler: clock,
    });
    try {
      for (const u of sim.users.slice(0, 20)) accepted(await sendTemplate(client, u.phone, `o-${u.index}`, 'order_update'));
      await clock.advance(DAY);
      const messages = sim.groundTruth().messages;
      expect(messages).toHaveLength(20);
      const unposted = messages.flatMap((m) => {
        const truth = m.readAt !== null ? 'read' : m.deliveredAt !== null ? 'delivered' : 'sent';
        const posted = receiver.statusesFor(m.wamid).map((s) => s.status);
        return posted.includes(truth) ? [] : [`${m.messageId}: ${truth}, posted ${posted.join(', ')}`];
      });
      expect(unposted).toEqual([]);
      expect(messages.filter((m) => m.readAt === null).map((m) => m.messageId)).toEqual([]);
    } finally {
      await client.close();
      await sim.stop();
      await receiver.stop();
    }
  });
});

describe('simulator webhooks: our parser reads them, and the real fixtures', () => {
  it('parses every kind the simulator posts without a problem', async () => {
    h = await startHarness({
      seed: 46,
      population: {
        size: 400,
        experimentRate: 0,
        stoppedRate: 0,
        notOnWhatsAppRate: 0.05,
        readPropensity: { min: 0.9, max: 1 },
        replyPropensity: { min: 0.5, max: 0.8 },
      },
      templates: [
        { name: 'pushy_promo', language: 'en_US', category: 'MARKETING', relevance: 0 },
        { name: 'order_update', language: 'en_US', category: 'UTILITY', relevance: 0.9 },
      ],
      cap: { usMarketingPause: false, uncappedRegions: ['US', 'GB', 'DE', 'ES', 'IN', 'BR', 'ID', 'MX', 'NG', 'ZA', 'JP', 'KR'] },
      reactions: { blockRate: 0.25, reportRate: 0.05, preferenceStopRate: 0.2, stopTapRate: 0.6 },
    });
    for (const u of h.sim.users.slice(0, 80)) await sendTemplate(h.client, u.phone, `k-${u.index}`, 'pushy_promo');
    h.sim.act.writes(h.sim.users[100]!.phone, 'Olá! Ação? 👋');
    await h.sim.advance(DAY);

    const kinds = new Set<string>();
    for (const r of h.receiver.received) {
      const parsed = parseWebhook(JSON.parse(r.raw.toString('utf8')));
      expect(parsed.problems).toEqual([]);
      for (const item of parsed.items) kinds.add(item.kind === 'inbound' ? `inbound:${item.type}` : item.kind);
    }
    for (const kind of [
      'status',
      'inbound:text',
      'inbound:button',
      'user_preference',
      'template_quality',
      'template_status',
      'phone_quality',
    ]) {
      expect(kinds, kind).toContain(kind);
    }
  });

  it('parses every fixture of real Meta payloads', () => {
    const files = readdirSync(FIXTURES).filter((f) => f.endsWith('.json'));
    expect(files.length).toBeGreaterThan(5);
    for (const file of files) {
      const cases = JSON.parse(fillPlaceholders(readFileSync(path.join(FIXTURES, file), 'utf8'))) as Record<string, unknown>;
      const bodies = 'object' in cases ? { [file]: cases } : cases;
      for (const [name, body] of Object.entries(bodies)) {
        const parsed = parseWebhook(body);
        expect(parsed.problems, `${file}:${name}`).toEqual([]);
        expect(parsed.items.length, `${file}:${name}`).toBeGreaterThan(0);
      }
    }
  });

  it('emits status objects with exactly the fields of Meta’s shape', async () => {
    h = await startHarness({ seed: 47, population: { size: 100 }, webhooks: ORDERLY_WEBHOOKS });
    for (const u of h.sim.users.slice(0, 20)) await sendTemplate(h.client, u.phone, `s-${u.index}`);
    await h.sim.advance(DAY);
    const allowed = new Set([
      'id',
      'status',
      'timestamp',
      'recipient_id',
      'recipient_user_id',
      'biz_opaque_callback_data',
      'pricing',
      'errors',
    ]);
    for (const s of h.receiver.statuses()) {
      for (const key of Object.keys(s)) expect(allowed, key).toContain(key);
      if (s.pricing) expect(Object.keys(s.pricing).sort()).toEqual(['billable', 'category', 'pricing_model', 'type']);
      if (s.errors) expect(Object.keys(s.errors[0]!).sort()).toEqual(['code', 'error_data', 'href', 'message', 'title']);
    }
    for (const c of h.receiver.changes('messages')) {
      expect(c.value.metadata).toEqual({
        display_phone_number: h.sim.config.displayPhoneNumber,
        phone_number_id: h.sim.config.phoneNumberId,
      });
      expect(c.value.messaging_product).toBe('whatsapp');
    }
  });
});
