import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createCloudApiClient } from '../src/adapters/cloud-api/cloud-api-client.js';
import type { CloudApi, SendResult } from '../src/ports/cloud-api.js';
import { startHarness, type Harness } from './simulator-harness.js';

interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: Record<string, unknown>;
}

/** A loopback server that records requests and answers like Meta's success body. */
async function recordingServer(): Promise<{ server: Server; url: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      seen.push({
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: JSON.parse(Buffer.concat(chunks).toString('utf8')),
      });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          messaging_product: 'whatsapp',
          contacts: [{ input: 'x', wa_id: '447700900123' }],
          messages: [{ id: 'wamid.OK', message_status: 'accepted' }],
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

let cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanup.reverse()) await c();
  cleanup = [];
});

function track(client: CloudApi, server?: Server): void {
  cleanup.push(() => client.close());
  if (server) cleanup.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
}

describe('Cloud API client: requests on the wire', () => {
  it('posts templates to {base}/{version}/{pnid}/messages with the bearer token and our id as callback data', async () => {
    const { server, url, seen } = await recordingServer();
    const client = createCloudApiClient({ baseUrl: `${url}/graph/`, apiVersion: 'v24.0', phoneNumberId: '555', accessToken: 'tok-1' });
    track(client, server);
    await client.send({
      type: 'template',
      endpoint: 'messages',
      to: { kind: 'phone', phone: '+44 7700 900123' },
      messageId: 'our-42',
      template: { name: 'spring_sale', language: 'en_GB', components: [{ type: 'body', parameters: [{ type: 'text', text: 'Priya' }] }] },
    });
    await client.send({
      type: 'template',
      endpoint: 'marketing_messages',
      to: { kind: 'user_id', userId: 'GB.123' },
      messageId: 'our-43',
      template: { name: 'spring_sale', language: 'en_GB' },
    });
    await client.send({ type: 'text', to: { kind: 'phone', phone: '447700900123' }, messageId: 'our-44', body: 'Hi there' });

    expect(seen.map((s) => `${s.method} ${s.url}`)).toEqual([
      'POST /graph/v24.0/555/messages',
      'POST /graph/v24.0/555/marketing_messages',
      'POST /graph/v24.0/555/messages',
    ]);
    expect(seen[0]?.headers.authorization).toBe('Bearer tok-1');
    expect(seen[0]?.headers['content-type']).toBe('application/json');
    expect(seen[0]?.body).toEqual({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: '447700900123',
      biz_opaque_callback_data: 'our-42',
      type: 'template',
      template: {
        name: 'spring_sale',
        language: { code: 'en_GB' },
        components: [{ type: 'body', parameters: [{ type: 'text', text: 'Priya' }] }],
      },
    });
    expect(seen[1]?.body).toMatchObject({ recipient: 'GB.123', biz_opaque_callback_data: 'our-43' });
    expect(seen[1]?.body).not.toHaveProperty('to');
    expect(seen[2]?.body).toMatchObject({
      type: 'text',
      text: { body: 'Hi there', preview_url: false },
      biz_opaque_callback_data: 'our-44',
    });
  });

  it('reuses keep-alive connections instead of opening one per send', async () => {
    const { server, url } = await recordingServer();
    const sockets = new Set<unknown>();
    server.on('connection', (s) => sockets.add(s));
    const client = createCloudApiClient({ baseUrl: url, apiVersion: 'v23.0', phoneNumberId: '1', accessToken: 't', maxConcurrency: 2 });
    track(client, server);
    for (let i = 0; i < 20; i++) await client.send({ type: 'text', to: { kind: 'phone', phone: '1' }, messageId: `m${i}`, body: 'x' });
    expect(sockets.size).toBeLessThanOrEqual(2); // at most one per concurrency slot, not one per send
  });

  it('rejects a base URL that is not http(s) and a blank version, naming the option', () => {
    const base = { apiVersion: 'v23.0', phoneNumberId: '1', accessToken: 't' };
    expect(() => createCloudApiClient({ ...base, baseUrl: 'ftp://example.test' })).toThrow(/baseUrl must be http/);
    expect(() => createCloudApiClient({ ...base, baseUrl: 'not a url' })).toThrow(/baseUrl is not a URL/);
    expect(() => createCloudApiClient({ ...base, baseUrl: 'http://127.0.0.1:1', apiVersion: ' ' })).toThrow(/apiVersion/);
    expect(() => createCloudApiClient({ ...base, baseUrl: 'http://127.0.0.1:1', maxConcurrency: 0 })).toThrow(/maxConcurrency/);
  });
});

describe('Cloud API client: bounded concurrency against the simulator', () => {
  let h: Harness | null = null;
  afterEach(async () => {
    await h?.close();
    h = null;
  });

  it('never has more than maxConcurrency requests in flight; the rest wait their turn', async () => {
    h = await startHarness({ seed: 61, population: { size: 10 } }, { maxConcurrency: 2, timeoutMs: 1_000 });
    h.sim.faults.inject({ kind: 'timeout' }, { count: 3 });
    const send = (i: number): Promise<SendResult> =>
      h!.client.send({
        type: 'template',
        endpoint: 'messages',
        to: { kind: 'phone', phone: h!.sim.users[i]!.phone },
        messageId: `c${i}`,
        template: { name: 'order_update', language: 'en_US' },
      });
    const results = [send(0), send(1), send(2), send(3)];
    await h.sim.faults.whenHeld(2);
    // Two are held; the other two are still queued inside the client, so nothing else reached the server.
    expect(h.sim.groundTruth().requests).toBe(0);
    await h.clock.advance(1_000); // the two held requests time out and free their slots
    await h.sim.faults.whenHeld(3); // the third is now held; the fourth went out beside it
    expect((await results[3]!).kind).toBe('accepted');
    await h.clock.advance(1_000);
    const settled = await Promise.all(results.slice(0, 3));
    expect(settled.map((r) => (r.kind === 'transport_failure' ? r.reason : r.kind))).toEqual(['timeout', 'timeout', 'timeout']);
  });
});
