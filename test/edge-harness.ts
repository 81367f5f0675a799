import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { onTestFinished } from 'vitest';
import { buildApp } from '../src/adapters/http/build-app.js';
import type { HttpEdgeSettings } from '../src/adapters/http/server-limits.js';
import { createApiToken } from '../src/app/api-tokens.js';
import { DEFAULT_POLICY } from '../src/core/policy.js';
import type { Store } from '../src/ports/store.js';
import type { TestBackend } from './store-backends.js';

/** The HTTP app as the engine wires it (webhooks, REST API, dashboard), driven with inject(): no socket. */

export const T0 = Date.UTC(2026, 0, 5, 9, 0, 0);
export const ADMIN_TOKEN = 'edge-admin-token-3b9d0e61';

export interface EdgeRig {
  app: FastifyInstance;
  store: Store;
  /** A stored API token. */
  token: string;
  clock: { t: number; now(): number };
  /** A form POST; `from` is the peer address (default 127.0.0.1, as a local proxy's). */
  form(
    path: string,
    fields: Record<string, string>,
    o?: { headers?: Record<string, string>; from?: string },
  ): Promise<LightMyRequestResponse>;
  get(path: string, o?: { headers?: Record<string, string>; from?: string }): Promise<LightMyRequestResponse>;
}

export async function startEdge(backend: TestBackend, edge?: HttpEdgeSettings): Promise<EdgeRig> {
  const store = await backend.open();
  const clock = { t: T0, now: () => clock.t };
  const app = await buildApp({
    store,
    clock,
    policy: DEFAULT_POLICY,
    logger: false,
    config: {
      appSecrets: ['edge-app-secret'],
      verifyToken: null,
      mode: 'production',
      host: '127.0.0.1',
      adminToken: ADMIN_TOKEN,
      phoneNumberId: '106540352242922',
      ...(edge === undefined ? {} : { edge }),
    },
  });
  onTestFinished(() => app.close());
  const { token } = await createApiToken(store, { name: 'edge-tests', scope: 'admin' }, T0);
  return {
    app,
    store,
    token,
    clock,
    form: (path, fields, o = {}) =>
      app.inject({
        method: 'POST',
        url: path,
        remoteAddress: o.from ?? '127.0.0.1',
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...o.headers },
        payload: new URLSearchParams(fields).toString(),
      }),
    get: (path, o = {}) => app.inject({ method: 'GET', url: path, remoteAddress: o.from ?? '127.0.0.1', headers: o.headers ?? {} }),
  };
}

/** The first Set-Cookie header of a response. */
export function setCookieOf(res: LightMyRequestResponse): string | undefined {
  const header = res.headers['set-cookie'];
  return Array.isArray(header) ? header[0] : header;
}

export function csrfIn(html: string): string {
  const match = /name="_csrf" value="([^"]+)"/.exec(html);
  if (match?.[1] === undefined) throw new Error('no CSRF field in the page');
  return match[1];
}
