import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateLoad } from '../bench/harness/load.js';

// A real server on loopback: 204 for /ok, 500 for /fail; it records request bodies it saw.
const seen: string[] = [];
const server = http.createServer((req, res) => {
  let body = '';
  req.on('data', (chunk: Buffer) => (body += chunk.toString()));
  req.on('end', () => {
    seen.push(body);
    res.statusCode = req.url === '/ok' ? 204 : 500;
    res.end();
  });
});
let origin = '';

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe('load generator', () => {
  it('sends exactly maxRequests requests, each built from its index, and reports rate and latency', async () => {
    seen.length = 0;
    const result = await generateLoad({
      origin,
      connections: 4,
      maxRequests: 200,
      maxDurationMs: 20_000,
      request: (i) => ({ path: '/ok', headers: { 'content-type': 'text/plain' }, body: `req-${i}` }),
    });
    expect(result).toMatchObject({ requests: 200, ok: 200, failed: 0, firstError: null });
    expect(seen.sort()).toEqual(Array.from({ length: 200 }, (_, i) => `req-${i}`).sort());
    expect(result.rate).toBeGreaterThan(0);
    expect(result.p99Ms).toBeGreaterThanOrEqual(result.p50Ms);
  });

  it('stops at the time bound, whatever the count bound', async () => {
    let now = 0;
    // Each request "takes" 10 ms of the injected clock, so a 50 ms bound lets about five through per connection.
    const result = await generateLoad({
      origin,
      connections: 1,
      maxRequests: 1_000_000,
      maxDurationMs: 50,
      request: () => {
        now += 10;
        return { path: '/ok' };
      },
      clock: () => now,
    });
    expect(result.requests).toBe(5);
  });

  it('counts error responses as failures and names the first', async () => {
    const result = await generateLoad({
      origin,
      connections: 2,
      maxRequests: 10,
      maxDurationMs: 20_000,
      request: () => ({ path: '/fail' }),
    });
    expect(result).toMatchObject({ requests: 10, ok: 0, failed: 10, firstError: 'HTTP 500 on /fail' });
    expect(result.rate).toBe(0);
  });

  it('refuses unbounded settings', async () => {
    await expect(
      generateLoad({ origin, connections: 1, maxRequests: 0, maxDurationMs: 10, request: () => ({ path: '/ok' }) }),
    ).rejects.toThrow(/must be positive/);
  });
});
