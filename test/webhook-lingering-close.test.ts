import { describe, expect, it } from 'vitest';
import { LINGER_MS } from '../src/adapters/http/lingering-close.js';
import { WEBHOOK_BODY_LIMIT } from '../src/adapters/http/webhook-routes.js';
import { signBody } from '../src/adapters/http/webhook-signature.js';
import { BACKENDS } from './store-backends.js';
import { pipelined, postForever, postReadingLate } from './webhook-endpoint-raw.js';
import { inbox, SECRET, startServer } from './webhook-endpoint-server.js';

const signed = { 'content-type': 'application/json', 'x-hub-signature-256': signBody('{}', SECRET) };

// The first backend is enough: what is tested happens before anything is stored.
const [backend] = BACKENDS;

describe('a refused client still sending its body reads the answer, not a reset', () => {
  it.each([
    ['a declared length over the limit', { ...signed, 'content-length': String(64 * 1024 * 1024) }, 413],
    ['a chunked body growing past the limit', { ...signed, 'transfer-encoding': 'chunked' }, 413],
    ['no signature header', { 'content-type': 'application/json', 'content-length': String(2 * 1024 * 1024) }, 401],
  ])('%s', async (_case, headers, status) => {
    const store = await backend!.open();
    const { app, listen } = await startServer(store);
    const origin = await listen();
    const answer = await postReadingLate(origin, headers, 300);
    expect(answer.status).toBe(status);
    // The client was still writing well after the server had answered.
    expect(answer.bytesWritten).toBeGreaterThan(WEBHOOK_BODY_LIMIT / 2);
    expect(await inbox(store)).toEqual([]);
    expect(app.pacerMetrics.webhookTooLarge + app.pacerMetrics.webhookRejected.missing).toBe(1);
  });
});

describe('the linger is bounded', () => {
  it('cuts off a refused client that never stops sending, after the linger', async () => {
    const { listen } = await startServer(await backend!.open());
    const ended = await postForever(await listen(), signed);
    expect(ended.status).toBe(413);
    // Its writes end in the server's reset, not in a close of its own.
    expect(['ECONNRESET', 'EPIPE']).toContain(ended.endedBy);
    // It lingered (the timer cannot fire early), and it did end: not after many times the linger.
    expect(ended.afterAnswerMs).toBeGreaterThanOrEqual(LINGER_MS / 2);
    expect(ended.afterAnswerMs).toBeLessThan(10 * LINGER_MS);
  });

  it('serves nothing more on a refused connection: a request sent after the refusal is neither stored nor counted', async () => {
    const store = await backend!.open();
    const { app, listen } = await startServer(store);
    const good = '{"object":"whatsapp_business_account","entry":[]}';
    const post = (headers: Record<string, string>, body: string) =>
      `POST /webhooks/whatsapp HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n${Object.entries(
        headers,
      )
        .map(([k, v]) => `${k}: ${v}\r\n`)
        .join('')}\r\n${body}`;
    const answered = await pipelined(await listen(), [
      post({}, '{}'),
      post({ 'x-hub-signature-256': signBody(good, SECRET) }, good),
      ...Array.from({ length: 20 }, () => post({}, '{}')),
    ]);
    // One answer: the refusal; the connection closed after it.
    expect(answered.match(/HTTP\/1\.1 \d{3}/g)).toEqual(['HTTP/1.1 401']);
    expect(await inbox(store)).toEqual([]);
    expect(app.pacerMetrics.webhookRejected.missing).toBe(1);
    expect(app.pacerMetrics.webhookStored).toBe(0);
  });
});
