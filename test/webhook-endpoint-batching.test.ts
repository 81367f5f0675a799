import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { signBody } from '../src/adapters/http/webhook-signature.js';
import { BACKENDS } from './store-backends.js';
import {
  SECRET,
  VERIFY_TOKEN,
  WEBHOOK,
  countingStore,
  fixtureBodies,
  get,
  inbox,
  rawOf,
  signedPost,
  startServer,
} from './webhook-endpoint-server.js';

function statusBody(i: number): string {
  return `{"object":"whatsapp_business_account","entry":[{"id":"1","changes":[{"field":"messages","value":{"statuses":[{"id":"wamid.${i}","status":"read","note":"ñ ✓ ${i}"}]}}]}]}`;
}

/** Resolves when `count()` reaches `n`, checked by `poke()` after each change. */
function reaching(count: () => number, n: number): { reached: Promise<void>; poke: () => void } {
  let release = (): void => undefined;
  const reached = new Promise<void>((resolve) => (release = resolve));
  const poke = (): void => {
    if (count() >= n) release();
  };
  return { reached, poke };
}

/** Every body at once, `connections` requests in flight at a time (all of them when it is as many). */
async function postAll(app: FastifyInstance, bodies: readonly string[], connections: number): Promise<number[]> {
  const statuses: number[] = [];
  let next = 0;
  const lane = async (): Promise<void> => {
    for (let i = next++; i < bodies.length; i = next++) {
      const body = bodies[i] ?? '';
      const res = await app.inject({
        method: 'POST',
        url: WEBHOOK,
        payload: body,
        headers: { 'content-type': 'application/json', 'x-hub-signature-256': signBody(body, SECRET) },
      });
      statuses[i] = res.statusCode;
    }
  };
  await Promise.all(Array.from({ length: connections }, lane));
  return statuses;
}

describe.each(BACKENDS)('webhook endpoint: group commit and callbacks ($name)', (backend) => {
  it('commits concurrent requests in shared transactions, each payload exactly once, byte for byte', async () => {
    const n = 120;
    let arrived = 0;
    const all = reaching(() => arrived, n);
    // The first transaction is held until every request reached its handler, so the rest must share one.
    const { store, batches } = countingStore(await backend.open(), all.reached);
    const stored: number[] = [];
    const { app } = await startServer(store, {}, { onStored: (ids) => void stored.push(...ids) }, (built) =>
      built.addHook('preHandler', async () => {
        arrived++;
        all.poke();
      }),
    );
    const bodies = Array.from({ length: n }, (_, i) => statusBody(i));
    expect(await postAll(app, bodies, n)).toEqual(bodies.map(() => 200));

    expect(batches.length).toBeLessThan(n);
    expect(batches.length).toBeLessThanOrEqual(3);
    expect(batches.reduce((a, b) => a + b, 0)).toBe(n);
    expect(app.pacerMetrics.inboxBatches).toBe(batches.length);
    const rows = await inbox(store);
    expect(rows.map((r) => rawOf(r).toString('utf8')).sort()).toEqual([...bodies].sort());
    expect([...stored].sort((a, b) => a - b)).toEqual(rows.map((r) => r.id));
  });

  it('never commits more than the batch limit at once', async () => {
    const n = 60;
    let arrived = 0;
    const all = reaching(() => arrived, n);
    const { store, batches } = countingStore(await backend.open(), all.reached);
    const { app } = await startServer(store, {}, { maxInboxBatch: 8 }, (built) =>
      built.addHook('preHandler', async () => {
        arrived++;
        all.poke();
      }),
    );
    const bodies = Array.from({ length: n }, (_, i) => statusBody(i));
    expect(await postAll(app, bodies, n)).toEqual(bodies.map(() => 200));
    expect(Math.max(...batches)).toBeLessThanOrEqual(8);
    expect(batches.reduce((a, b) => a + b, 0)).toBe(n);
    expect(await inbox(store)).toHaveLength(n);
  });

  it('stores every real webhook fixture as sent', async () => {
    const store = await backend.open();
    const { app } = await startServer(store);
    const fixtures = fixtureBodies();
    expect(fixtures.length).toBeGreaterThan(30);
    const statuses = await postAll(
      app,
      fixtures.map((f) => f.body),
      16,
    );
    expect(statuses).toEqual(fixtures.map(() => 200));
    const stored = (await inbox(store)).map((r) => rawOf(r).toString('utf8')).sort();
    expect(stored).toEqual(fixtures.map((f) => f.body).sort());
  });

  it('answers 200 and logs when the processing callback fails', async () => {
    const store = await backend.open();
    let calls = 0;
    const { app, logged } = await startServer(
      store,
      {},
      {
        onStored: async () => {
          calls++;
          throw new Error('processor bug');
        },
      },
    );
    expect((await signedPost(app, statusBody(1))).status).toBe(200);
    const line = await logged((l) => l['msg'] === 'inbox processing after store failed');
    expect(line).toMatchObject({ level: 50, batch: 1, err: { message: 'processor bug' } });
    expect(calls).toBe(1);
    expect(await inbox(store)).toHaveLength(1);
  });

  it('never logs the verify token, app secrets, signatures or phone numbers', async () => {
    const store = await backend.open();
    const phone = '447700900123';
    const body = `{"entry":[{"changes":[{"value":{"contacts":[{"wa_id":"${phone}"}],"messages":[{"from":"${phone}"}]}}]}]}`;
    const signature = signBody(body, SECRET);
    const { app, logText } = await startServer(store, { appSecrets: [SECRET, 'second-secret-55aa'] });
    await get(app, `${WEBHOOK}?hub.mode=subscribe&hub.verify_token=${VERIFY_TOKEN}&hub.challenge=chal-QZ7`);
    await get(app, `${WEBHOOK}?hub.mode=subscribe&hub.verify_token=${VERIFY_TOKEN}x&hub.challenge=chal-QZ7`);
    expect((await signedPost(app, body)).status).toBe(200);
    expect((await signedPost(app, body, 'attacker')).status).toBe(401);
    await store.close(); // the 503 path logs the store's error
    expect((await signedPost(app, body)).status).toBe(503);
    const text = logText();
    expect(text).toContain('webhook not stored');
    for (const secret of [VERIFY_TOKEN, SECRET, 'second-secret-55aa', signature.slice(7), phone, 'chal-QZ7']) {
      expect(text).not.toContain(secret);
    }
  });
});
