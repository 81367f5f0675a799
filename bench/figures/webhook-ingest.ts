import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { buildHttpServer } from '../../src/adapters/http/build-server.js';
import { WEBHOOK_BODY_LIMIT, WEBHOOK_PATH } from '../../src/adapters/http/webhook-routes.js';
import { openStore } from '../../src/adapters/storage/open-store.js';
import { signBody } from '../../src/adapters/webhook/signature.js';
import type { Store } from '../../src/ports/store.js';
import { generateLoad, type LoadResult } from '../harness/load.js';
import type { Benchmark, Sample } from '../harness/types.js';

const SECRET = 'bench-app-secret';
const NOOP_PATH = '/bench/noop';
/** Distinct signed bodies cycled through, signed ahead so the load generator does no HMAC work. */
const DISTINCT_BODIES = 2_000;

interface Ctx {
  dir: string;
  store: Store;
  app: FastifyInstance;
  origin: string;
  bodies: Array<{ body: Buffer; signature: string }>;
  requests: number;
  connections: number;
  /** Webhooks answered 200, checked against the inbox at the end: acknowledged means stored. */
  acknowledged: number;
}

function statusWebhook(i: number): Buffer {
  const status = ['sent', 'delivered', 'read'][i % 3];
  return Buffer.from(
    JSON.stringify({
      object: 'whatsapp_business_account',
      entry: [{
        id: '102290129340398',
        changes: [{
          field: 'messages',
          value: {
            messaging_product: 'whatsapp',
            metadata: { display_phone_number: '15550001111', phone_number_id: '106540352242922' },
            statuses: [{
              id: `wamid.HBgLMTU1NTAwMDAxMTEVAgARGBI${String(i).padStart(8, '0')}`,
              status,
              timestamp: String(1_760_000_000 + i),
              recipient_id: `1555${String(i).padStart(7, '0')}`,
              biz_opaque_callback_data: `o:${i}`,
              pricing: { billable: true, pricing_model: 'PMP', category: 'marketing', type: 'regular' },
            }],
          },
        }],
      }],
    }),
  );
}

// The reference: the same server, the same body bytes read, answered 200 with no check and no write.
const noopRoute: FastifyPluginAsync = async (app) => {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
  app.post(NOOP_PATH, { bodyLimit: WEBHOOK_BODY_LIMIT }, async (_request, reply) => reply.code(200).send());
};

async function load(ctx: Ctx, target: string, signed: boolean): Promise<LoadResult> {
  const result = await generateLoad({
    origin: ctx.origin,
    connections: ctx.connections,
    maxRequests: ctx.requests,
    maxDurationMs: 120_000,
    request: (i) => {
      const b = ctx.bodies[i % ctx.bodies.length]!;
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (signed) headers['x-hub-signature-256'] = b.signature;
      return { path: target, method: 'POST', headers, body: b.body };
    },
  });
  if (result.failed > 0 || result.ok !== ctx.requests) {
    throw new Error(`${target}: ${result.failed} of ${result.requests} requests failed (${result.firstError ?? 'stopped early'})`);
  }
  return result;
}

function toSample(result: LoadResult): Sample {
  return { value: result.rate, extras: { p50Ms: result.p50Ms, p99Ms: result.p99Ms } };
}

async function countInbox(store: Store): Promise<number> {
  let count = 0;
  let after = 0;
  for (;;) {
    const page = await store.listUnprocessedInbox(after, 5_000);
    if (page.length === 0) return count;
    count += page.length;
    after = page.at(-1)!.id;
  }
}

const benchmark: Benchmark<Ctx> = {
  name: 'webhook-ingest',
  row: 'webhook-ack-sqlite-full',
  figure: 'Signed status webhooks acknowledged per second, durable (committed before 200), SQLite WAL synchronous=FULL, group commit',
  against: 'no-op POST route on the same server, same bodies',
  target: '≥ 8,000/s',
  unit: 'webhooks/s',
  async setup({ quick }) {
    const dir = mkdtempSync(path.join(tmpdir(), 'pacer-bench-webhook-'));
    const store = openStore({ dataDir: dir });
    await store.migrate();
    const app = buildHttpServer({
      store,
      config: { appSecrets: [SECRET], verifyToken: null, mode: 'production' },
      clock: { now: () => Date.now() },
      logger: { level: 'error', stream: { write: () => undefined } },
    });
    await app.register(noopRoute);
    const origin = await app.listen({ host: '127.0.0.1', port: 0 });
    const bodies = Array.from({ length: DISTINCT_BODIES }, (_, i) => {
      const body = statusWebhook(i);
      return { body, signature: signBody(body, SECRET) };
    });
    return { dir, store, app, origin, bodies, requests: quick ? 2_000 : 40_000, connections: 64, acknowledged: 0 };
  },
  async pacer(ctx) {
    const result = await load(ctx, WEBHOOK_PATH, true);
    ctx.acknowledged += result.ok;
    return toSample(result);
  },
  async reference(ctx) {
    return toSample(await load(ctx, NOOP_PATH, false));
  },
  async teardown(ctx) {
    try {
      await ctx.app.close();
      const stored = await countInbox(ctx.store);
      if (stored !== ctx.acknowledged) throw new Error(`webhook-ingest: ${ctx.acknowledged} webhooks acknowledged but ${stored} stored`);
    } finally {
      await ctx.store.close();
      rmSync(ctx.dir, { recursive: true, force: true });
    }
  },
  meets: ({ pacer }) => pacer.median >= 8_000,
};

export default benchmark;
