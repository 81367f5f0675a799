import { describe, expect, it } from 'vitest';
import { createApiToken } from '../src/app/api-tokens.js';
import { HOUR } from '../src/core/time.js';
import { ADMIN_TOKEN, body, readRows, startApi, T0, type ApiRig, type Reply } from './api-harness.js';
import { BACKENDS } from './store-backends.js';

const MESSAGE = { to: '+14155550123', category: 'service', text: 'Your table is ready' };

async function outboxRows(rig: ApiRig): Promise<number> {
  const [row] = await readRows(rig.place, 'SELECT COUNT(*) AS n FROM outbox');
  return Number(row?.['n']);
}

async function keyRows(rig: ApiRig): Promise<Array<Record<string, unknown>>> {
  return readRows(rig.place, 'SELECT principal, idempotency_key, status FROM idempotency_keys ORDER BY principal');
}

const post = (rig: ApiRig, key: string, body: unknown, token?: string): Promise<Reply> =>
  rig.call('POST', '/api/v1/messages', { body, headers: { 'idempotency-key': key }, ...(token === undefined ? {} : { token }) });

describe.each(BACKENDS)('REST API: Idempotency-Key ($name)', (backend) => {
  it('answers a retry with the same key and request with the first answer, marked replayed, and queues once', async () => {
    const rig = await startApi(backend);
    const first = await post(rig, 'order-7', MESSAGE);
    expect(first.status).toBe(202);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    // The same body with its keys in another order is the same request.
    const again = await post(rig, 'order-7', { text: MESSAGE.text, category: MESSAGE.category, to: MESSAGE.to });
    expect(again.status).toBe(202);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.headers['content-type']).toBe(first.headers['content-type']);
    expect(again.text).toBe(first.text);
    expect(await outboxRows(rig)).toBe(1);
    // Only the header gave a key: the message's own key is derived from it (and the token).
    expect(body<{ idempotencyKey: string }>(first).idempotencyKey).toMatch(/^api-idem-[0-9a-f]{40}$/);
  });

  it('refuses the same key for another request with 422, and while the first runs with 409, naming the header', async () => {
    const rig = await startApi(backend);
    expect((await post(rig, 'k1', MESSAGE)).status).toBe(202);
    const other = await post(rig, 'k1', { ...MESSAGE, text: 'Another text' });
    expect(other).toMatchObject({
      status: 422,
      json: {
        error: 'idempotency_key_reused',
        message: expect.stringContaining('Idempotency-Key') as string,
        issues: [{ path: 'Idempotency-Key' }],
      },
    });
    const otherPath = await rig.call('POST', '/api/v1/campaigns/1/pause', { body: {}, headers: { 'idempotency-key': 'k1' } });
    expect(otherPath.status).toBe(404); // not idempotent: the header means nothing there
    // A request holding the key (as another process would be, mid-request): 409 with Retry-After.
    const principal = 'admin';
    await rig.store.claimIdempotencyKey({ principal, key: 'k2', fingerprint: 'x' }, rig.clock.now(), { keepMs: HOUR, staleAfterMs: HOUR });
    const running = await post(rig, 'k2', MESSAGE, ADMIN_TOKEN);
    expect(running).toMatchObject({ status: 409, json: { error: 'idempotency_key_in_progress', issues: [{ path: 'Idempotency-Key' }] } });
    expect(running.json).toMatchObject({ message: expect.stringContaining('Idempotency-Key') as string });
    expect(running.headers['retry-after']).toBe('1');
    expect(await outboxRows(rig)).toBe(1);
  });

  it('keeps keys per token: another token with the same key makes its own request', async () => {
    const rig = await startApi(backend);
    const other = (await createApiToken(rig.store, { name: 'crm', scope: 'write' }, T0)).token;
    expect((await post(rig, 'same', MESSAGE)).status).toBe(202);
    const second = await post(rig, 'same', MESSAGE, other);
    expect(second.status).toBe(202);
    expect(second.headers['idempotent-replayed']).toBeUndefined();
    expect(body<{ queued: boolean }>(second).queued).toBe(true);
    expect(await outboxRows(rig)).toBe(2);
    expect((await keyRows(rig)).map((r) => r['principal'])).toHaveLength(2);
  });

  it('stores a 4xx answer from the operation, but neither a 5xx nor a request refused at the edge', async () => {
    const rig = await startApi(backend);
    // A 4xx of the operation itself: replayed, even though the same request would now succeed.
    const unknownSender = { ...MESSAGE, from: '999999999' };
    const refused = await post(rig, 'k4', unknownSender);
    expect(refused).toMatchObject({ status: 400, json: { error: 'unknown_sender' } });
    await rig.store.upsertSenders(
      [
        {
          phoneNumberId: '999999999',
          displayNumber: '+1 555 0100',
          qualityRating: 'GREEN',
          throughputMps: 80,
          messagingLimitTier: null,
          state: 'ok',
          stateReason: null,
          stateUntil: null,
        },
      ],
      T0,
    );
    expect((await rig.call('POST', '/api/v1/messages', { body: unknownSender })).status).toBe(202); // would succeed now
    const replayed = await post(rig, 'k4', unknownSender);
    expect(replayed).toMatchObject({ status: 400, json: { error: 'unknown_sender' } });
    expect(replayed.headers['idempotent-replayed']).toBe('true');
    // A body refused by its schema never reached the operation: the key stays free for the fixed body.
    expect((await post(rig, 'k5', { ...MESSAGE, category: 'spam' })).status).toBe(400);
    expect((await post(rig, 'k5', MESSAGE)).status).toBe(202);

    const down = await startApi(backend, { phoneNumberId: null });
    expect((await post(down, 'k6', MESSAGE)).status).toBe(503);
    const retried = await post(down, 'k6', MESSAGE);
    expect(retried.status).toBe(503);
    expect(retried.headers['idempotent-replayed']).toBeUndefined();
    expect(await keyRows(down)).toEqual([]);
  });

  it('refuses a key that is empty, longer than 255 characters or not printable ASCII with 400 naming the header', async () => {
    const rig = await startApi(backend);
    for (const bad of ['""', 'k'.repeat(256), 'caf\u00e9', 'a\tb']) {
      const r = await rig.call('POST', '/api/v1/messages', { body: MESSAGE, headers: { 'idempotency-key': bad } });
      expect(r, bad).toMatchObject({ status: 400, json: { error: 'invalid_idempotency_key', issues: [{ path: 'Idempotency-Key' }] } });
      expect(body<{ message: string }>(r).message).toContain('Idempotency-Key');
    }
    expect((await post(rig, 'k'.repeat(255), MESSAGE)).status).toBe(202);
    // The IETF draft's quoted form names the same key as the bare one.
    expect((await post(rig, '"k-quoted"', MESSAGE)).status).toBe(202);
    expect((await post(rig, 'k-quoted', MESSAGE)).headers['idempotent-replayed']).toBe('true');
    expect(await outboxRows(rig)).toBe(2); // the 255-character key's message and the quoted key's
  });

  it('gives two concurrent requests with the same key one queued message', async () => {
    const rig = await startApi(backend);
    const [a, b] = await Promise.all([post(rig, 'race', MESSAGE), post(rig, 'race', MESSAGE)]);
    const outcomes = [a, b].map((r) => `${r.status}${r.headers['idempotent-replayed'] === 'true' ? ' replayed' : ''}`).sort();
    // Either the second arrived while the first ran (409), or after it was answered (a replay).
    expect([
      ['202', '409'],
      ['202', '202 replayed'],
    ]).toContainEqual(outcomes);
    expect(await outboxRows(rig)).toBe(1);
    const after = await post(rig, 'race', MESSAGE);
    expect(after.headers['idempotent-replayed']).toBe('true');
  });

  it('holds across processes and restarts: another app on the same database replays the answer', async () => {
    const first = await startApi(backend);
    const original = await post(first, 'order-9', MESSAGE, ADMIN_TOKEN);
    expect(original.status).toBe(202);
    await first.app.close();
    const second = await startApi(backend, { place: first.place });
    const replayed = await post(second, 'order-9', MESSAGE, ADMIN_TOKEN);
    expect(replayed.headers['idempotent-replayed']).toBe('true');
    expect(replayed.text).toBe(original.text);
    expect(await outboxRows(second)).toBe(1);
  });

  it('forgets a key after its time (PACER_IDEMPOTENCY_TTL); the message derived from it still queues once', async () => {
    const rig = await startApi(backend, { idempotencyTtlMs: 2 * HOUR });
    expect((await post(rig, 'old', MESSAGE)).status).toBe(202);
    rig.clock.t += 2 * HOUR - 1;
    expect((await post(rig, 'old', MESSAGE)).headers['idempotent-replayed']).toBe('true');
    rig.clock.t += 1;
    // The key is new again: the operation runs, and finds the message it queued under the derived key.
    const later = await post(rig, 'old', MESSAGE);
    expect(later.headers['idempotent-replayed']).toBeUndefined();
    expect(later).toMatchObject({ status: 200, json: { queued: false } });
    expect(await outboxRows(rig)).toBe(1);
    // And a key past its time may be used for another request: a new message.
    rig.clock.t += 2 * HOUR;
    expect(await post(rig, 'old', { ...MESSAGE, text: 'New text' })).toMatchObject({ status: 202, json: { queued: true } });
    expect(await outboxRows(rig)).toBe(2);
  });

  it('keeps the body idempotencyKey working beside the header', async () => {
    const rig = await startApi(backend);
    const withBodyKey = { ...MESSAGE, idempotencyKey: 'crm-1' };
    expect(await rig.call('POST', '/api/v1/messages', { body: withBodyKey })).toMatchObject({
      status: 202,
      json: { idempotencyKey: 'crm-1' },
    });
    expect(await rig.call('POST', '/api/v1/messages', { body: withBodyKey })).toMatchObject({ status: 200, json: { queued: false } });
    // With a header too: the header replays the request, the body key still names the message.
    const both = await post(rig, 'h-1', { ...MESSAGE, idempotencyKey: 'crm-2' });
    expect(both).toMatchObject({ status: 202, json: { queued: true, idempotencyKey: 'crm-2' } });
    expect((await post(rig, 'h-1', { ...MESSAGE, idempotencyKey: 'crm-2' })).headers['idempotent-replayed']).toBe('true');
    expect(await outboxRows(rig)).toBe(2);
  });
});
