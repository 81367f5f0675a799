import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/adapters/http/build-app.js';
import { openStore } from '../../src/adapters/storage/open-store.js';
import { createApiToken } from '../../src/app/api-tokens.js';
import { DEFAULT_POLICY } from '../../src/core/policy.js';
import type { Store } from '../../src/ports/store.js';
import type { Benchmark } from '../harness/types.js';

interface Ctx {
  dir: string;
  store: Store;
  app: FastifyInstance;
  token: string;
  requests: number;
  round: number;
}

const T0 = 1_760_000_000_000;

/** `n` service messages to distinct numbers, one request at a time; `keyed` adds an Idempotency-Key to each. */
async function post(ctx: Ctx, keyed: boolean): Promise<{ value: number }> {
  const round = ctx.round++;
  const start = performance.now();
  for (let i = 0; i < ctx.requests; i++) {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/messages',
      headers: {
        authorization: `Bearer ${ctx.token}`,
        'content-type': 'application/json',
        ...(keyed ? { 'idempotency-key': `bench-${round}-${i}` } : {}),
      },
      payload: JSON.stringify({
        to: `+1415555${String((round * ctx.requests + i) % 10_000).padStart(4, '0')}`,
        category: 'service',
        text: 'hi',
      }),
    });
    if (res.statusCode !== 202 && res.statusCode !== 200) throw new Error(`api-idempotency: ${res.statusCode} ${res.body}`);
  }
  return { value: ctx.requests / ((performance.now() - start) / 1000) };
}

const benchmark: Benchmark<Ctx> = {
  name: 'api-idempotency',
  row: 'api-idempotent-post',
  figure: 'POST /api/v1/messages per second, one at a time, each with its own Idempotency-Key (claim and answer written to SQLite)',
  against: 'the same requests without the header (the route generates the message key)',
  target: 'none set; tracked so the cost of the key shows',
  unit: 'requests/s',
  async setup({ quick }) {
    const dir = mkdtempSync(path.join(tmpdir(), 'pacer-bench-idem-'));
    const store = openStore({ dataDir: dir });
    await store.migrate();
    const app = await buildApp({
      store,
      clock: { now: () => T0 },
      policy: DEFAULT_POLICY,
      logger: false,
      rateLimit: null,
      config: {
        appSecrets: ['s'],
        verifyToken: null,
        mode: 'production',
        host: '127.0.0.1',
        adminToken: null,
        phoneNumberId: '106540352242922',
      },
    });
    const { token } = await createApiToken(store, { name: 'bench', scope: 'write' }, T0);
    return { dir, store, app, token, requests: quick ? 200 : 2_000, round: 0 };
  },
  pacer: (ctx) => post(ctx, true),
  reference: (ctx) => post(ctx, false),
  async teardown(ctx) {
    await ctx.app.close();
    await ctx.store.close();
    rmSync(ctx.dir, { recursive: true, force: true });
  },
  meets: () => null,
};

export default benchmark;
