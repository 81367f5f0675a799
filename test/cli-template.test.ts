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

describe('pacer template ttl', () => {
  it("sets a marketing template's time-to-live at Meta, stores it, and says where it holds", async () => {
    const s = await account();
    expect((await run('template', 'sync')).code).toBe(0);
    const set = await run('template', 'ttl', 'spring_sale', '--language', 'en_US', '--ttl', '12h');
    expect(set).toMatchObject({ code: 0, err: '' });
    expect(set.out).toBe(
      [
        "Template spring_sale (en_US, marketing): time-to-live 12 h (43,200 s), was Meta's default. A message Meta cannot deliver within it is dropped instead of arriving late.",
        'Meta honours it on the Marketing Messages API (PACER_MARKETING_PATH marketing_messages or marketing_messages_after_cap); on /messages marketing is retried for 30 days whatever the template says.',
      ].join('\n'),
    );
    // Meta's copy says so, and so does the store.
    const id = (JSON.parse((await run('template', 'list', '--json')).out) as { name: string; metaId: string }[]).find(
      (t) => t.name === 'spring_sale',
    )?.metaId;
    const atMeta = await fetch(`${s.url}/v24.0/${id}?fields=message_send_ttl_seconds`, {
      headers: { authorization: `Bearer ${s.config.accessToken}` },
    });
    expect(await atMeta.json()).toEqual({ id, message_send_ttl_seconds: 43_200 });
    expect((await run('template', 'list')).out).toContain(
      'spring_sale (en_US) marketing — approved, quality GREEN, time-to-live 12 h (43,200 s)',
    );
    // An authentication template, in JSON: its own range, on the Cloud API.
    const login = await run('template', 'ttl', 'login_code', '--ttl', '5m', '--json');
    expect(JSON.parse(login.out)).toMatchObject({ name: 'login_code', sendTtlSeconds: 300, previousTtlSeconds: 600, readBack: true });
  });

  it('refuses what cannot be set, naming why, and changes nothing', async () => {
    const s = await account();
    await run('template', 'add', 'hand_made', '--category', 'utility');
    expect((await run('template', 'sync')).code).toBe(0);
    const cases: [string[], number, string][] = [
      [
        ['spring_sale', '--ttl', 'soon'],
        2,
        'pacer: --ttl must be a duration in whole seconds like 12h, 900s or 7d (or -1 for 30 days), got "soon"',
      ],
      [
        ['spring_sale', '--ttl', '1500ms'],
        2,
        'pacer: --ttl must be a duration in whole seconds like 12h, 900s or 7d (or -1 for 30 days), got "1500ms"',
      ],
      [
        ['spring_sale', '--ttl', '1h'],
        2,
        "pacer: --ttl: a marketing template's time-to-live is 12 h (43,200 s) to 30 days (2,592,000 s) (Meta's range), got 1 h (3,600 s); give 12 h (43,200 s) to 30 days (2,592,000 s); nothing changed",
      ],
      [
        ['spring_sale', '--ttl', '-1'],
        2,
        "pacer: --ttl: a marketing template's time-to-live is 12 h (43,200 s) to 30 days (2,592,000 s) (Meta's range), got 30 days (-1); give 12 h (43,200 s) to 30 days (2,592,000 s); nothing changed",
      ],
      [
        ['login_code', '--ttl', '1h'],
        2,
        "pacer: --ttl: an authentication template's time-to-live is 30 s to 15 min (900 s) (Meta's range), got 1 h (3,600 s); give 30 s to 15 min (900 s), or -1 for 30 days; nothing changed",
      ],
      [['nowhere', '--ttl', '12h'], 2, 'pacer: template nowhere (en_US) is not known: run pacer template sync; nothing changed'],
      [
        ['hand_made', '--ttl', '1h'],
        2,
        'pacer: template hand_made (en_US) was registered by hand, so Pacer does not know its id at Meta: run pacer template sync; nothing changed',
      ],
    ];
    for (const [args, code, err] of cases) {
      const r = await run('template', 'ttl', ...args);
      expect(r.code, args.join(' ')).toBe(code);
      expect(r.err).toBe(err);
    }
    const stored = JSON.parse((await run('template', 'list', '--json')).out) as { name: string; sendTtlSeconds: number | null }[];
    expect(stored.find((t) => t.name === 'spring_sale')?.sendTtlSeconds).toBeNull();
    expect(stored.find((t) => t.name === 'login_code')?.sendTtlSeconds).toBe(600);

    // Meta refuses a second edit of an approved template within 24 h: exit 1, Meta's reason.
    expect((await run('template', 'ttl', 'spring_sale', '--ttl', '1d')).code).toBe(0);
    const again = await run('template', 'ttl', 'spring_sale', '--ttl', '2d');
    expect(again.code).toBe(1);
    expect(again.err).toBe(
      'pacer: editing template spring_sale (en_US): Meta refused it: (#100) Invalid parameter (An approved template can be edited once in 24 hours and 10 times in 30 days.); nothing changed',
    );
    expect(
      (JSON.parse((await run('template', 'list', '--json')).out) as { name: string; sendTtlSeconds: number }[]).find(
        (t) => t.name === 'spring_sale',
      )?.sendTtlSeconds,
    ).toBe(86_400);

    // A template Meta deleted is not edited.
    s.templates.remove('order_update', 'en_US');
    await run('template', 'sync');
    const deleted = await run('template', 'ttl', 'order_update', '--ttl', '1h');
    expect(deleted).toMatchObject({
      code: 2,
      err: 'pacer: template order_update (en_US) is deleted: Meta edits only approved, rejected or paused templates; nothing changed',
    });
  });

  it('needs the business account, and says so', async () => {
    process.env.WHATSAPP_ACCESS_TOKEN = 'token';
    const r = await run('template', 'ttl', 'spring_sale', '--ttl', '12h');
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/WHATSAPP_BUSINESS_ACCOUNT_ID is not set/);
  });
});
