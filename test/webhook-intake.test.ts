import { connect, type Socket } from 'node:net';
import { describe, expect, it, onTestFinished } from 'vitest';
import { MAX_CONNECTIONS } from '../src/adapters/http/server-limits.js';
import { signBody } from '../src/adapters/http/webhook-signature.js';
import { BACKENDS } from './store-backends.js';
import { inbox, SECRET, startServer, WEBHOOK } from './webhook-endpoint-server.js';

/** A signed webhook over a real socket: the server under test has just dropped or refused other connections. */
async function signedPostOver(origin: string, body: string | Buffer): Promise<{ status: number }> {
  const res = await fetch(`${origin}${WEBHOOK}`, {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/json', 'x-hub-signature-256': signBody(body, SECRET) },
  });
  await res.arrayBuffer();
  return { status: res.status };
}

/** A POST over a bare socket that sends its headers and part of its body, then stalls. */
interface StalledPost {
  /** Status and headers of the answer, once it arrives. */
  answer: Promise<{ status: number; headers: Record<string, string> }>;
  /** Resolves when the server closes the connection. */
  closed: Promise<void>;
}

function stalledPost(origin: string, headers: Record<string, string>, sent: Buffer): StalledPost {
  const url = new URL(origin);
  const socket: Socket = connect({ host: url.hostname, port: Number(url.port) });
  onTestFinished(() => void socket.destroy());
  let received = '';
  const answer = new Promise<{ status: number; headers: Record<string, string> }>((resolve, reject) => {
    socket.on('data', (data: Buffer) => {
      received += data.toString('latin1');
      const end = received.indexOf('\r\n\r\n');
      if (end === -1) return;
      const [statusLine = '', ...lines] = received.slice(0, end).split('\r\n');
      const parsed = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(statusLine)?.[1]), headers: parsed });
    });
    socket.on('close', () => reject(new Error(`closed without an answer: ${JSON.stringify(received.slice(0, 80))}`)));
  });
  answer.catch(() => undefined);
  const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  socket.on('error', () => undefined); // the server may close while we still write
  socket.on('connect', () => {
    const head = Object.entries({ host: url.host, 'content-type': 'application/json', ...headers })
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join('');
    socket.write(`POST ${WEBHOOK} HTTP/1.1\r\n${head}\r\n`);
    socket.write(sent);
  });
  return { answer, closed };
}

const MB = 1024 * 1024;
const signed = { 'x-hub-signature-256': signBody('{}', SECRET) };

describe.each(BACKENDS)('Webhook bodies from anyone are bounded ($name)', (backend) => {
  it('answers a POST without a usable signature header at once, without waiting for its body, and closes', async () => {
    const store = await backend.open();
    const running = await startServer(store);
    const origin = await running.listen();
    const { app } = running;
    const missing = stalledPost(origin, { 'content-length': String(3 * MB) }, Buffer.from('{"entry":'));
    expect((await missing.answer).status).toBe(401);
    expect((await missing.answer).headers['connection']).toBe('close');
    await missing.closed;
    const malformed = stalledPost(origin, { 'content-length': String(3 * MB), 'x-hub-signature-256': 'sha256=nothex' }, Buffer.alloc(0));
    expect((await malformed.answer).status).toBe(401);
    expect(app.pacerMetrics.webhookRejected).toMatchObject({ missing: 1, malformed: 1 });
    expect(await inbox(store)).toEqual([]);
  });

  it('drops a body that does not arrive in time with 408, closes the connection, and still takes prompt ones', async () => {
    const store = await backend.open();
    const running = await startServer(store, { edge: { webhookBodyTimeoutMs: 150 } });
    const origin = await running.listen();
    const { app } = running;
    const slow = stalledPost(origin, { ...signed, 'content-length': String(MB) }, Buffer.alloc(64 * 1024, 0x20));
    const answer = await slow.answer;
    expect(answer.status).toBe(408);
    expect(answer.headers['connection']).toBe('close');
    expect(answer.headers['retry-after']).toBe('5');
    await slow.closed;
    expect(app.pacerMetrics.webhookBodyTimeout).toBe(1);
    expect((await signedPostOver(origin, '{"object":"whatsapp_business_account","entry":[]}')).status).toBe(200);
    expect(await inbox(store)).toHaveLength(1);
  });

  it('refuses with 503 and Retry-After once the bodies being received reach the in-flight limit, until one ends', async () => {
    const store = await backend.open();
    const running = await startServer(store, { edge: { webhookInflightBytes: MB, webhookBodyTimeoutMs: 800 } });
    const origin = await running.listen();
    const { app, logged } = running;
    const first = stalledPost(origin, { ...signed, 'content-length': String(600 * 1024) }, Buffer.alloc(1024, 0x20));
    // The first request has reserved its length once the server has logged it.
    await logged((l) => l['msg'] === 'incoming request');
    const second = stalledPost(origin, { ...signed, 'content-length': String(600 * 1024) }, Buffer.alloc(0));
    const busy = await second.answer;
    expect(busy.status).toBe(503);
    expect(busy.headers['retry-after']).toBe('5');
    expect(busy.headers['connection']).toBe('close');
    await second.closed;
    // A small body still fits beside the first one.
    expect((await signedPostOver(origin, '{"entry":[]}')).status).toBe(200);
    expect(app.pacerMetrics.webhookBusy).toBe(1);
    // The first one times out; its reservation goes with it, and a large body fits again.
    expect((await first.answer).status).toBe(408);
    await first.closed;
    const body = Buffer.concat([Buffer.from('{"pad":"'), Buffer.alloc(600 * 1024, 0x62), Buffer.from('"}')]);
    expect((await signedPostOver(origin, body)).status).toBe(200);
    expect(await inbox(store)).toHaveLength(2);
    const metrics = app.pacerMetrics;
    expect(metrics).toMatchObject({ webhookBusy: 1, webhookBodyTimeout: 1, webhookStored: 2 });
  });

  it('a chunked body reserves the largest body: it is refused when less than that is left', async () => {
    const store = await backend.open();
    const running = await startServer(store, { edge: { webhookInflightBytes: 4 * MB, webhookBodyTimeoutMs: 400 } });
    const origin = await running.listen();
    const { logged } = running;
    const first = stalledPost(origin, { ...signed, 'content-length': String(2 * MB) }, Buffer.alloc(0));
    await logged((l) => l['msg'] === 'incoming request');
    const chunked = stalledPost(origin, { ...signed, 'transfer-encoding': 'chunked' }, Buffer.from('2\r\n{}\r\n'));
    expect((await chunked.answer).status).toBe(503);
    expect((await first.answer).status).toBe(408);
  });

  it('sets the server timeouts and the connection limit', async () => {
    const store = await backend.open();
    const { app } = await startServer(store);
    expect(app.server.requestTimeout).toBe(30_000);
    expect(app.server.headersTimeout).toBe(10_000);
    expect(app.server.maxConnections).toBe(MAX_CONNECTIONS);
  });
});
