import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DAY, MINUTE } from '../src/core/time.js';
import type { Store } from '../src/ports/store.js';
import { runPacer as run } from './cli-run.js';
import { BACKENDS, type TestBackend } from './store-backends.js';

const ENV = ['PACER_DATA_DIR', 'DATABASE_URL', 'PACER_DB_SCHEMA', 'PACER_MODE'] as const;
afterEach(() => {
  for (const name of ENV) delete process.env[name];
});

/** The CLI's database (the backend's fresh place), and a store on it for what only workers do. */
async function place(backend: TestBackend): Promise<Store> {
  const p = backend.place();
  const dir = mkdtempSync(path.join(tmpdir(), 'pacer-events-'));
  process.env.PACER_DATA_DIR = p.options.dataDir ?? dir;
  if (p.options.databaseUrl !== undefined) process.env.DATABASE_URL = p.options.databaseUrl;
  if (p.options.schema !== undefined) process.env.PACER_DB_SCHEMA = p.options.schema;
  const store = p.open();
  await store.migrate();
  return Object.assign(store, { cleanup: () => rmSync(dir, { recursive: true, force: true }) });
}

const json = <T>(r: { out: string }): T => JSON.parse(r.out) as T;

describe.each(BACKENDS)('pacer events ($name)', (backend) => {
  it('subscribes (secret printed once), lists, disables, enables and unsubscribes', async () => {
    const store = await place(backend);
    const created = await run('events', 'subscribe', 'https://crm.example.com/hook', '--types', 'message.failed,contact.replied', '--json');
    expect(created.code).toBe(0);
    const sub = json<{ id: number; secret: string; eventTypes: string[] }>(created);
    expect(sub.secret).toMatch(/^whsec_/);
    expect(sub.eventTypes).toEqual(['message.failed', 'contact.replied']);
    const text = await run('events', 'subscribe', 'http://127.0.0.1:9000/hook', '--types', '*', '--description', 'local');
    expect(text.out).toMatch(/^Subscription #2: http:\/\/127\.0\.0\.1:9000\/hook \(\*\)\nSigning secret:\nwhsec_/);

    const listed = await run('events', 'subscriptions', '--json');
    expect(json<Array<{ id: number }>>(listed).map((s) => s.id)).toEqual([sub.id, 2]);
    expect(listed.out).not.toContain(sub.secret);
    expect((await run('events', 'subscriptions')).out).toContain(
      `#${sub.id}  enabled   https://crm.example.com/hook  message.failed,contact.replied`,
    );
    expect(await run('events', 'disable', String(sub.id), '--json')).toMatchObject({
      code: 0,
      out: JSON.stringify({ id: sub.id, enabled: false }),
    });
    expect((await store.getEventSubscription(sub.id))?.enabled).toBe(false);
    expect(await run('events', 'enable', String(sub.id))).toMatchObject({ code: 0, out: `Subscription #${sub.id} enabled.` });
    expect(await run('events', 'unsubscribe', '2', '--json')).toMatchObject({ code: 0, out: JSON.stringify({ id: 2, deleted: true }) });
    expect(await store.getEventSubscription(2)).toBeNull();
    for (const args of [
      ['disable', '2'],
      ['enable', '2'],
      ['unsubscribe', '2'],
      ['show', '2'],
      ['attempts', '99'],
    ]) {
      expect(await run('events', ...args), args.join(' ')).toMatchObject({
        code: 1,
        err: expect.stringMatching(/^pacer: No event/) as string,
      });
    }
    await store.close();
  });

  it('refuses a bad subscription with exit code 2, naming the flag, and stores nothing', async () => {
    const store = await place(backend);
    const cases: Array<[string[], RegExp]> = [
      [['http://crm.example.com/', '--types', '*'], /<url>: expected an https:\/\/ URL/],
      [['https://crm.example.com/', '--types', 'message.sent'], /--types: expected unknown "message.sent"/],
      [['https://crm.example.com/', '--types', '*', '--campaign', '5'], /--campaign: expected no campaign #5/],
      [['https://crm.example.com/', '--types', '*', '--secret', 'nope'], /--secret: expected a whsec_ prefix/],
      [['https://crm.example.com/', '--types', '*', '--campaign', 'x'], /--campaign is a number/],
    ];
    for (const [args, message] of cases) {
      const r = await run('events', 'subscribe', ...args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.err, args.join(' ')).toMatch(message);
    }
    process.env.PACER_MODE = 'development';
    expect((await run('events', 'subscribe', 'http://crm.internal/', '--types', '*')).code).toBe(0);
    expect((await store.listEventSubscriptions()).map((s) => s.url)).toEqual(['http://crm.internal/']);
    await store.close();
  });

  it('shows failed and pending deliveries, each attempt of an event, and replays by event or range', async () => {
    const store = await place(backend);
    const sub = json<{ id: number }>(await run('events', 'subscribe', 'https://crm.example.com/hook', '--types', '*', '--json'));
    const now = Date.now();
    const at = (n: number) => ({
      type: 'message.read' as const,
      occurredAt: now - n * MINUTE,
      contactId: n,
      campaignId: null,
      phoneNumberId: null,
      data: { n },
    });
    await store.recordOutboundEvents([at(3), at(2), at(1)], now);
    const [first] = await store.claimEventDeliveries({ owner: 'w', now, leaseMs: MINUTE, limit: 1 });
    const attempt = { at: now, durationMs: 31, statusCode: 503, error: 'HTTP 503' };
    await store.settleEventDelivery({ deliveryId: first?.delivery.id ?? -1, owner: 'w', attempt, outcome: { kind: 'failed' } }, now);

    const shown = await run('events', 'show', String(sub.id));
    expect(shown.out).toContain('Deliveries: 2 pending');
    expect(shown.out).toContain(`event #${first?.event.id}  delivery #${first?.delivery.id}  1 attempt(s)`);
    const shownJson = json<{ failed: Array<{ eventId: number }>; pending: unknown[] }>(
      await run('events', 'show', String(sub.id), '--json'),
    );
    expect([shownJson.failed.map((d) => d.eventId), shownJson.pending.length]).toEqual([[first?.event.id], 2]);

    const attempts = json<{ event: { type: string }; deliveries: Array<{ history: unknown[] }> }>(
      await run('events', 'attempts', String(first?.event.id), '--json'),
    );
    expect(attempts).toMatchObject({
      event: { type: 'message.read' },
      deliveries: [{ status: 'failed', history: [{ statusCode: 503, error: 'HTTP 503', durationMs: 31 }] }],
    });
    expect((await run('events', 'attempts', String(first?.event.id))).out).toContain('503  31 ms  HTTP 503');

    expect(await run('events', 'replay', '--event', String(first?.event.id), '--json')).toMatchObject({ code: 0, out: '{"requeued":1}' });
    const from = new Date(now - 2.5 * MINUTE).toISOString();
    const to = new Date(now).toISOString();
    expect(await run('events', 'replay', '--from', from, '--to', to, '--subscription', String(sub.id))).toMatchObject({
      code: 0,
      out: expect.stringMatching(/^Queued 2 deliveries again/) as string,
    });
    for (const bad of [
      [],
      ['--from', from],
      ['--event', '1', '--from', from, '--to', to],
      ['--from', 'yesterday', '--to', to],
      ['--from', to, '--to', from],
    ]) {
      expect((await run('events', 'replay', ...bad)).code, bad.join(' ')).toBe(2);
    }
    await store.close();
  });

  it('prunes events older than a cut-off that nothing still owes, and refuses a bad duration', async () => {
    const store = await place(backend);
    await run('events', 'subscribe', 'https://crm.example.com/hook', '--types', '*', '--json');
    const now = Date.now();
    const at = (n: number, ageDays: number) => ({
      type: 'message.read' as const,
      occurredAt: now - ageDays * DAY,
      contactId: n,
      campaignId: null,
      phoneNumberId: null,
      data: { n },
    });
    // Two old ones (one delivered, one still pending) and a recent delivered one.
    await store.recordOutboundEvents([at(1, 40), at(2, 40), at(3, 1)], now);
    const claimed = await store.claimEventDeliveries({ owner: 'w', now, leaseMs: MINUTE, limit: 10 });
    for (const c of claimed.filter((c) => c.event.data['n'] !== 2)) {
      const attempt = { at: now, durationMs: 5, statusCode: 200, error: null };
      await store.settleEventDelivery({ deliveryId: c.delivery.id, owner: 'w', attempt, outcome: { kind: 'delivered' } }, now);
    }
    expect(await run('events', 'prune', '--older-than', '30d', '--json')).toMatchObject({
      code: 0,
      out: JSON.stringify({ events: 1, deliveries: 1, attempts: 1 }),
    });
    const kept = await Promise.all(claimed.map((c) => store.getOutboundEvent(c.event.id)));
    expect(kept.map((e) => e?.data['n'] ?? null).sort()).toEqual([2, 3, null]);
    expect((await run('events', 'prune', '--older-than', '12h')).out).toBe(
      'Deleted 1 event(s) older than 12h, with 1 delivery and 1 attempt(s). Events with a pending delivery are kept.',
    );
    for (const bad of [[], ['--older-than', '10m'], ['--older-than', 'a month']]) {
      const r = await run('events', 'prune', ...bad);
      expect(r.code, bad.join(' ')).toBe(2);
      expect(r.out + r.err, bad.join(' ')).toContain('--older-than');
    }
    await store.close();
  });
});
