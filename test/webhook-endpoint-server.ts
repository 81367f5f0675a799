import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { onTestFinished } from 'vitest';
import { buildApp, type AppConfig, type AppDeps } from '../src/adapters/http/build-app.js';
import { DEFAULT_POLICY } from '../src/core/policy.js';
import type { InboxRow, Store } from '../src/ports/store.js';
import { signBody } from '../src/adapters/http/webhook-signature.js';
import { textHeaders } from './inject-headers.js';

/** The HTTP app for the webhook endpoint tests; requests are injected. */

export const SECRET = 'app-secret-current-4f1c';
export const OLD_SECRET = 'app-secret-previous-9a2b';
export const VERIFY_TOKEN = 'verify-token-7d3e';
export const T0 = Date.UTC(2026, 0, 5, 9, 0, 0);
export const WEBHOOK = '/webhooks/whatsapp';

export interface Running {
  app: FastifyInstance;
  /** Listens on loopback (for what only a real socket can send) and returns the origin. */
  listen(): Promise<string>;
  /** Every log line so far, parsed. */
  logs: Array<Record<string, unknown>>;
  logText(): string;
  /** Resolves once a log line matches. */
  logged(match: (line: Record<string, unknown>) => boolean): Promise<Record<string, unknown>>;
}

export async function startServer(
  store: Store,
  config: Partial<AppConfig> = {},
  extra: Partial<AppDeps> = {},
  extend?: (app: FastifyInstance) => void,
): Promise<Running> {
  const logs: Array<Record<string, unknown>> = [];
  const watchers: Array<{ match: (line: Record<string, unknown>) => boolean; resolve: (line: Record<string, unknown>) => void }> = [];
  const stream = {
    write(line: string): void {
      const parsed = JSON.parse(line) as Record<string, unknown>;
      logs.push(parsed);
      for (const w of watchers.filter((x) => x.match(parsed))) {
        watchers.splice(watchers.indexOf(w), 1);
        w.resolve(parsed);
      }
    },
  };
  const app = await buildApp({
    store,
    policy: DEFAULT_POLICY,
    config: {
      appSecrets: [SECRET],
      verifyToken: VERIFY_TOKEN,
      mode: 'production',
      host: '127.0.0.1',
      adminToken: null,
      phoneNumberId: null,
      ...config,
    },
    clock: { now: () => T0 },
    logger: { level: 'info', stream },
    ...extra,
  });
  onTestFinished(() => app.close());
  extend?.(app);
  return {
    app,
    listen: () => app.listen({ host: '127.0.0.1', port: 0 }),
    logs,
    logText: () => logs.map((l) => JSON.stringify(l)).join('\n'),
    logged: (match) => {
      const found = logs.find(match);
      if (found) return Promise.resolve(found);
      return new Promise((resolve) => watchers.push({ match, resolve }));
    },
  };
}

export interface Reply {
  status: number;
  body: string;
  headers: Record<string, string | string[] | undefined>;
}

export async function post(app: FastifyInstance, body: string | Buffer, headers: Record<string, string> = {}): Promise<Reply> {
  const res = await app.inject({
    method: 'POST',
    url: WEBHOOK,
    payload: body,
    headers: { 'content-type': 'application/json', ...headers },
  });
  return { status: res.statusCode, body: res.body, headers: textHeaders(res.headers) };
}

export function signedPost(app: FastifyInstance, body: string | Buffer, secret = SECRET): Promise<Reply> {
  return post(app, body, { 'x-hub-signature-256': signBody(body, secret) });
}

export async function get(app: FastifyInstance, pathAndQuery: string): Promise<Reply> {
  const res = await app.inject({ method: 'GET', url: pathAndQuery });
  return { status: res.statusCode, body: res.body, headers: textHeaders(res.headers) };
}

export async function inbox(store: Store): Promise<InboxRow[]> {
  const rows: InboxRow[] = [];
  for (;;) {
    const page = await store.listUnprocessedInbox(rows.at(-1)?.id ?? 0, 500);
    if (page.length === 0) return rows;
    rows.push(...page);
  }
}

export function rawOf(row: InboxRow | undefined): Buffer {
  if (!row) throw new Error('expected an inbox row');
  return Buffer.from(row.raw);
}

/** A real store whose `appendInboxBatch` calls are counted (and optionally held), everything else untouched. */
export function countingStore(store: Store, gate?: Promise<void>): { store: Store; batches: number[] } {
  const batches: number[] = [];
  let first = true;
  const wrapped: Store = Object.create(store) as Store;
  wrapped.appendInboxBatch = async (entries) => {
    batches.push(entries.length);
    if (first && gate) {
      first = false;
      await gate;
    }
    return store.appendInboxBatch(entries);
  };
  return { store: wrapped, batches };
}

export interface FixtureBody {
  name: string;
  body: string;
}

const FIXTURES = path.resolve(import.meta.dirname, 'fixtures/meta-webhooks');

/** Every case of every fixture file, as the bytes to post (pretty-printed, as some senders do). */
export function fixtureBodies(): FixtureBody[] {
  return readdirSync(FIXTURES)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .flatMap((file) => {
      const cases = JSON.parse(readFileSync(path.join(FIXTURES, file), 'utf8')) as Record<string, unknown>;
      return Object.entries(cases).map(([key, value]) => ({ name: `${file}#${key}`, body: JSON.stringify(value, null, 2) }));
    });
}
