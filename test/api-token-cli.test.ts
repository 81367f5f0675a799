import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../src/adapters/http/build-app.js';
import { openStore, SQLITE_FILE_NAME } from '../src/adapters/storage/open-store.js';
import { hashApiToken } from '../src/app/api-tokens.js';
import { DEFAULT_POLICY } from '../src/core/policy.js';
import { runPacer } from './cli-run.js';

let dir: string;
const run = runPacer;

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'pacer-token-'));
  process.env.PACER_DATA_DIR = dir;
});

afterEach(() => {
  delete process.env.PACER_DATA_DIR;
  rmSync(dir, { recursive: true, force: true });
});

/** The HTTP app on the CLI's database, to try the token against the API. */
async function statusWith(token: string): Promise<number> {
  const store = openStore({ dataDir: dir });
  const app = await buildApp({
    store,
    clock: { now: () => Date.now() },
    policy: DEFAULT_POLICY,
    logger: false,
    config: { appSecrets: ['s'], verifyToken: null, mode: 'production', host: '127.0.0.1', adminToken: null, phoneNumberId: null },
  });
  try {
    const res = await app.inject({ url: '/api/v1/templates', headers: { authorization: `Bearer ${token}` } });
    return res.statusCode;
  } finally {
    await app.close();
    await store.close();
  }
}

describe('pacer token', () => {
  it('creates a token, prints it once, stores only its hash; list never shows it; revoke locks it out', async () => {
    const created = await run('token', 'create', '--name', 'ci', '--json');
    expect(created.code).toBe(0);
    const t = JSON.parse(created.out) as { id: number; name: string; token: string; createdAt: string };
    expect(Object.keys(t)).toEqual(['id', 'name', 'scope', 'token', 'createdAt']);
    expect(t).toMatchObject({ id: 1, name: 'ci', scope: 'read' });
    expect(t.token).toMatch(/^pacer_[A-Za-z0-9_-]{43}$/);
    const db = new Database(path.join(dir, SQLITE_FILE_NAME), { readonly: true });
    const rows = db.prepare('SELECT * FROM api_tokens').all() as Array<Record<string, unknown>>;
    db.close();
    expect(rows).toEqual([
      { id: 1, name: 'ci', token_hash: hashApiToken(t.token), created_at: Date.parse(t.createdAt), revoked_at: null, scope: 'read' },
    ]);
    expect(JSON.stringify(rows)).not.toContain(t.token.slice(6));

    expect(await statusWith(t.token)).toBe(200);
    const listed = await run('token', 'list', '--json');
    expect(JSON.parse(listed.out)).toEqual([{ id: 1, name: 'ci', scope: 'read', createdAt: t.createdAt, revokedAt: null }]);
    expect(listed.out).not.toContain(t.token);

    expect(await run('token', 'revoke', '1')).toMatchObject({ code: 0, out: 'Revoked API token #1.' });
    expect(await statusWith(t.token)).toBe(401);
    expect(await run('token', 'revoke', '1')).toMatchObject({ code: 1, err: 'pacer: No active API token #1.' });
  });

  it('prints the token with a warning that it is shown once; refuses an empty name', async () => {
    const human = await run('token', 'create');
    expect(human.code).toBe(0);
    expect(human.out).toMatch(/^Token #1 \(api, scope read: it can read everything but change nothing\):\npacer_\S{43}\nStore it now/);
    expect(human.out).toContain('--scope write');
    expect(await run('token', 'create', '--name', '  ')).toMatchObject({ code: 2, err: expect.stringContaining('--name') as string });
    expect(await run('token', 'revoke', 'abc')).toMatchObject({ code: 2 });
    expect(await run('token', 'create', '--scope', 'root')).toMatchObject({
      code: 2,
      err: expect.stringContaining('--scope must be one of read, write, admin (got "root")') as string,
    });
  });

  it('creates tokens of each scope, and the list shows each scope', async () => {
    for (const scope of ['write', 'admin']) expect((await run('token', 'create', '--name', scope, '--scope', scope)).code).toBe(0);
    const w = await run('token', 'create', '--name', 'w2', '--scope', 'write', '--json');
    const token = (JSON.parse(w.out) as { token: string }).token;
    expect(await statusWith(token)).toBe(200);
    const listed = JSON.parse((await run('token', 'list', '--json')).out) as Array<{ name: string; scope: string }>;
    expect(listed.map((r) => `${r.name}:${r.scope}`)).toEqual(['write:write', 'admin:admin', 'w2:write']);
    expect((await run('token', 'list')).out).toMatch(/^#1 {2}write {2}write {2}created /);
  });
});
