import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../src/adapters/simulator/index.js';
import { runPacer as run } from './cli-run.js';

let dir: string;
let sim: Simulator | null = null;
const ENV = ['PACER_DATA_DIR', 'WHATSAPP_BUSINESS_ACCOUNT_ID', 'WHATSAPP_ACCESS_TOKEN', 'WHATSAPP_API_BASE_URL'] as const;

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'pacer-template-'));
  process.env.PACER_DATA_DIR = dir;
});

afterEach(async () => {
  for (const name of ENV) delete process.env[name];
  await sim?.stop();
  sim = null;
  rmSync(dir, { recursive: true, force: true });
});

async function account(): Promise<Simulator> {
  sim = await startSimulator();
  process.env.WHATSAPP_API_BASE_URL = sim.url;
  process.env.WHATSAPP_ACCESS_TOKEN = sim.config.accessToken;
  process.env.WHATSAPP_BUSINESS_ACCOUNT_ID = sim.config.wabaId;
  return sim;
}

describe('pacer template add', () => {
  it('registers for offline use and refuses to change an existing template’s category', async () => {
    const added = await run('template', 'add', 'spring_sale', '--category', 'marketing');
    expect(added).toMatchObject({ code: 0, out: expect.stringContaining('registered for offline use; pacer template sync') });
    const changed = await run('template', 'add', 'spring_sale', '--category', 'utility');
    expect(changed.code).toBe(2);
    expect(changed.err).toBe(
      "pacer: template spring_sale (en_US) is marketing; it cannot be registered as utility. Only Meta changes a template's category: run pacer template sync.",
    );
    const listed = JSON.parse((await run('template', 'list', '--json')).out) as { category: string }[];
    expect(listed.map((t) => t.category)).toEqual(['marketing']);
    // The same category again changes nothing.
    expect((await run('template', 'add', 'spring_sale', '--category', 'marketing')).code).toBe(0);
  });
});

describe('pacer template sync', () => {
  it('needs WHATSAPP_BUSINESS_ACCOUNT_ID, and says so', async () => {
    process.env.WHATSAPP_ACCESS_TOKEN = 'token';
    const result = await run('template', 'sync');
    expect(result.code).toBe(2);
    expect(result.err).toBe(
      'pacer: WHATSAPP_BUSINESS_ACCOUNT_ID is not set: templates are listed from the WhatsApp Business Account (its id, digits).',
    );
    process.env.WHATSAPP_BUSINESS_ACCOUNT_ID = '123';
    delete process.env.WHATSAPP_ACCESS_TOKEN;
    expect((await run('template', 'sync')).err).toBe(
      'pacer: WHATSAPP_ACCESS_TOKEN is not set: reading templates needs the system-user token.',
    );
  });

  it('syncs the account’s templates, Meta’s category replacing one registered offline', async () => {
    await account();
    await run('template', 'add', 'order_update', '--category', 'marketing');
    const text = await run('template', 'sync');
    expect(text).toMatchObject({
      code: 0,
      out: 'Templates synced from 1 page(s): 2 added, 1 updated, 0 unchanged, 0 removed (marked deleted).',
    });
    const json = await run('template', 'sync', '--json');
    expect(JSON.parse(json.out)).toEqual({ pages: 1, added: 0, updated: 0, unchanged: 3, removed: 0, offlineOnly: 0, refused: [] });
    const listed = JSON.parse((await run('template', 'list', '--json')).out) as { name: string; category: string }[];
    expect(listed.map((t) => [t.name, t.category])).toEqual([
      ['login_code', 'authentication'],
      ['order_update', 'utility'],
      ['spring_sale', 'marketing'],
    ]);
  });

  it('fails without changing anything when Meta refuses the list', async () => {
    const s = await account();
    s.faults.inject({ kind: 'error_code', code: 200 }, { count: 1 });
    const result = await run('template', 'sync');
    expect(result.code).toBe(1);
    expect(result.err).toMatch(/^pacer: template sync failed, nothing changed: listing templates \(page 1\): Meta refused it: \(#200\)/);
    expect((await run('template', 'list')).out).toBe('No templates.');
  });
});
