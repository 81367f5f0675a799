import type { FastifyInstance } from 'fastify';
import { onTestFinished } from 'vitest';
import { buildApp } from '../src/adapters/http/build-app.js';
import { createApiToken } from '../src/app/api-tokens.js';
import { DEFAULT_POLICY } from '../src/core/policy.js';
import type { Store } from '../src/ports/store.js';
import type { TestBackend } from './store-backends.js';

/** The HTTP app's dashboard over a fresh migrated store; requests are injected. */

export const T0 = Date.UTC(2026, 0, 5, 9, 0, 0);
export const ADMIN_TOKEN = 'dashboard-admin-token-7c41';
export const PHONE_NUMBER_ID = '106540352242922';

export interface DashboardRig {
  store: Store;
  /** The origin a browser on this server sends (inject's host, localhost:80). */
  origin: string;
  app: FastifyInstance;
  token: string;
  clock: { t: number; now(): number };
  logText(): string;
  get(path: string, o?: { cookie?: string; bearer?: string }): Promise<Page>;
  post(
    path: string,
    form: Record<string, string>,
    o?: { cookie?: string; bearer?: string; origin?: string | null; headers?: Record<string, string> },
  ): Promise<Page>;
  /** Signs in through the form; returns the session cookie (`name=value`). */
  login(token?: string): Promise<string>;
}

export interface Page {
  status: number;
  location: string | undefined;
  setCookie: string | undefined;
  text: string;
}

export function csrfOf(page: Page): string {
  const match = /name="_csrf" value="([^"]+)"/.exec(page.text);
  if (match?.[1] === undefined) throw new Error(`no CSRF field in the page (status ${page.status})`);
  return match[1];
}

export async function startDashboard(backend: TestBackend, options: { phoneNumberId?: string | null } = {}): Promise<DashboardRig> {
  const store = await backend.open();
  const clock = { t: T0, now: () => clock.t };
  const lines: string[] = [];
  const app = await buildApp({
    store,
    clock,
    policy: DEFAULT_POLICY,
    config: {
      appSecrets: ['app-secret'],
      verifyToken: null,
      mode: 'production',
      host: '127.0.0.1',
      adminToken: ADMIN_TOKEN,
      phoneNumberId: options.phoneNumberId === undefined ? PHONE_NUMBER_ID : options.phoneNumberId,
    },
    logger: { level: 'trace', stream: { write: (line: string) => void lines.push(line) } },
  });
  onTestFinished(() => app.close());
  const origin = 'http://localhost:80';
  const { token } = await createApiToken(store, { name: 'dashboard-tests', scope: 'admin' }, T0);
  const send = async (method: 'GET' | 'POST', path: string, headers: Record<string, string>, body?: string): Promise<Page> => {
    const res = await app.inject({ method, url: path, headers, ...(body === undefined ? {} : { payload: body }) });
    const cookie = res.headers['set-cookie'];
    const location = res.headers['location'];
    return {
      status: res.statusCode,
      location: typeof location === 'string' ? location : undefined,
      setCookie: Array.isArray(cookie) ? cookie[0] : cookie,
      text: res.body,
    };
  };
  const auth = (o: { cookie?: string; bearer?: string }) => ({
    ...(o.cookie === undefined ? {} : { cookie: o.cookie }),
    ...(o.bearer === undefined ? {} : { authorization: `Bearer ${o.bearer}` }),
  });
  const rig: DashboardRig = {
    store,
    origin,
    app,
    token,
    clock,
    logText: () => lines.join(''),
    get: (path, o = {}) => send('GET', path, auth(o)),
    post: (path, form, o = {}) =>
      send(
        'POST',
        path,
        {
          'content-type': 'application/x-www-form-urlencoded',
          ...(o.origin === null ? {} : { origin: o.origin ?? origin }),
          ...auth(o),
          ...o.headers,
        },
        new URLSearchParams(form).toString(),
      ),
    login: async (t = token) => {
      const page = await rig.post('/login', { token: t, next: '/' });
      if (page.status !== 303 || page.setCookie === undefined) throw new Error(`sign-in failed with ${page.status}`);
      return page.setCookie.split(';')[0] ?? '';
    },
  };
  return rig;
}
