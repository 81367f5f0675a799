import path from 'node:path';
import Database from 'better-sqlite3';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { onTestFinished } from 'vitest';
import type { OperatorApiOptions } from '../src/adapters/http/api/operator-api.js';
import { buildApp } from '../src/adapters/http/build-app.js';
import { SQLITE_FILE_NAME } from '../src/adapters/storage/open-store.js';
import { createApiToken } from '../src/app/api-tokens.js';
import { DEFAULT_POLICY } from '../src/core/policy.js';
import type { Store } from '../src/ports/store.js';
import { textHeaders } from './inject-headers.js';
import { PG_URL, type Place, type TestBackend } from './store-backends.js';

/** The HTTP app with the operator API, over a fresh store of the given backend; requests are injected. */

export const T0 = Date.UTC(2026, 0, 5, 9, 0, 0);
export const ADMIN_TOKEN = 'admin-bootstrap-token-5e1f9c2a';
export const PHONE_NUMBER_ID = '106540352242922';

export interface ApiRig {
  store: Store;
  place: Place;
  app: FastifyInstance;
  /** Listens on loopback (for what only a real socket can send) and returns the origin. */
  listen(): Promise<string>;
  /** A stored token, created through the app use case. */
  token: string;
  /** Mutable time: move `clock.t` to let rate-limit buckets refill. */
  clock: { t: number; now(): number };
  /** Method and URL of every route registered by the API plugin (fastify's own list). */
  routes: Array<{ method: string; url: string }>;
  logText(): string;
  replays: number;
  call(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, o?: CallOptions): Promise<Reply>;
}

export interface CallOptions {
  /** Sent as JSON. */
  body?: unknown;
  /** Sent as is, with a JSON content type. */
  raw?: string;
  /** null sends no Authorization header; default the rig's stored token. */
  token?: string | null;
  headers?: Record<string, string>;
}

export interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  /** The body parsed as JSON (undefined when it is not JSON). */
  json: unknown;
}

/** The JSON body, typed as the test expects it (assertions check it). */
export function body<T>(reply: Reply): T {
  return reply.json as T;
}

export async function startApi(
  backend: TestBackend,
  options: Partial<Pick<OperatorApiOptions, 'host' | 'rateLimit' | 'phoneNumberId' | 'adminToken' | 'mode' | 'templateAccount'>> & {
    /** Another app over the database of an earlier rig (a second process, or a restart). */
    place?: Place;
    idempotencyTtlMs?: number;
  } = {},
): Promise<ApiRig> {
  const { place: given, ...rest } = options;
  const place = given ?? backend.place();
  const store = place.open();
  await store.migrate();
  const clock = { t: T0, now: () => clock.t };
  const lines: string[] = [];
  const routes: ApiRig['routes'] = [];
  const rig = { replays: 0 } as ApiRig;
  const { rateLimit, templateAccount, ...config } = rest;
  const app = await buildApp({
    store,
    clock,
    policy: DEFAULT_POLICY,
    config: {
      appSecrets: ['app-secret-for-tests'],
      verifyToken: 'verify-token-for-tests',
      mode: 'production',
      host: '127.0.0.1',
      adminToken: ADMIN_TOKEN,
      phoneNumberId: PHONE_NUMBER_ID,
      ...config,
    },
    logger: { level: 'trace', stream: { write: (line: string) => void lines.push(line) } },
    onReplay: () => void rig.replays++,
    rateLimit,
    templateAccount,
    onRoute: (r) => routes.push(r),
  });
  onTestFinished(() => app.close());
  const { token } = await createApiToken(store, { name: 'tests', scope: 'admin' }, T0);
  return Object.assign(rig, {
    store,
    place,
    app,
    token,
    clock,
    routes,
    listen: () => app.listen({ host: '127.0.0.1', port: 0 }),
    logText: () => lines.join(''),
    call: async (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, o: CallOptions = {}): Promise<Reply> => {
      const auth = o.token === null ? {} : { authorization: `Bearer ${o.token ?? token}` };
      const text = o.raw ?? (o.body === undefined ? undefined : JSON.stringify(o.body));
      const headers = text === undefined ? { ...auth, ...o.headers } : { 'content-type': 'application/json', ...auth, ...o.headers };
      const res = await app.inject({ method, url, headers, ...(text === undefined ? {} : { payload: text }) });
      let json: unknown;
      try {
        json = JSON.parse(res.body);
      } catch {
        json = undefined;
      }
      return { status: res.statusCode, headers: textHeaders(res.headers), text: res.body, json };
    },
  });
}

/** Reads rows straight from the database, behind the store's back. */
export async function readRows(place: Place, sql: string): Promise<Array<Record<string, unknown>>> {
  const { dataDir, schema } = place.options;
  if (schema === undefined) {
    const db = new Database(path.join(dataDir ?? '', SQLITE_FILE_NAME), { readonly: true });
    try {
      return db.prepare(sql).all() as Array<Record<string, unknown>>;
    } finally {
      db.close();
    }
  }
  const client = new pg.Client({ connectionString: PG_URL, options: `-c search_path=${schema}` });
  await client.connect();
  try {
    return (await client.query(sql)).rows as Array<Record<string, unknown>>;
  } finally {
    await client.end();
  }
}
