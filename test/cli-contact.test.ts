import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore } from '../src/adapters/storage/open-store.js';
import { importContactRecords } from '../src/app/import-contact-records.js';
import { applyContactEvents } from '../src/app/update-contact-state.js';
import { DEFAULT_POLICY } from '../src/core/policy.js';
import { runPacer } from './cli-run.js';

let dir: string;
const run = runPacer;

beforeEach(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'pacer-cli-'));
  process.env.PACER_DATA_DIR = dir;
  const store = openStore({ dataDir: dir });
  await store.migrate();
  const now = Date.now();
  const { ids } = await importContactRecords(
    store,
    [{ phoneE164: '+447700900123', name: 'Priya', tags: [], attributes: {}, consent: { marketing: true, utility: true } }],
    'test',
    DEFAULT_POLICY,
    now - 3_600_000,
  );
  await applyContactEvents(
    store,
    ids[0] as number,
    [{ type: 'status', id: 'w1:failed', at: now - 60_000, messageId: 'w1', status: 'failed', category: 'marketing', errorCode: 131049 }],
    DEFAULT_POLICY,
    now,
    () => undefined,
  );
  await store.close();
});

afterEach(() => {
  delete process.env.PACER_DATA_DIR;
  rmSync(dir, { recursive: true, force: true });
});

describe('pacer contact explain', () => {
  it('gives, per category, the decision kind, reason and until as JSON', async () => {
    const r = await run('contact', 'explain', '+44 7700 900123', '--json');
    expect(r.code).toBe(0);
    const body = JSON.parse(r.out) as {
      contact: string;
      categories: Record<string, { kind: string; reason: string; until: string | null }>;
    };
    expect(body.categories.marketing).toMatchObject({ kind: 'defer', reason: 'marketing_cool_off' });
    expect(Date.parse(body.categories.marketing?.until ?? '')).toBeGreaterThan(Date.now() + 23 * 3_600_000);
    expect(body.categories.utility).toMatchObject({ kind: 'send', reason: 'eligible', until: null });
    expect(body.categories.service).toMatchObject({ kind: 'skip', reason: 'window_closed' });
    expect(r.out).not.toContain('7700900123');
  });

  it('refuses authentication to a contact known only by business-scoped id (131062), with the id masked', async () => {
    const store = openStore({ dataDir: dir });
    await store.upsertContacts([{ bsuid: 'US.13491208655302741918', name: 'Ana' }], Date.now());
    await store.close();
    const r = await run('contact', 'explain', 'US.13491208655302741918', '--json');
    expect(r.code).toBe(0);
    const body = JSON.parse(r.out) as { contact: string; categories: Record<string, { kind: string; reason: string }> };
    expect(body.contact).toBe('US.•••••••••••••••••918');
    expect(body.categories.authentication).toMatchObject({ kind: 'skip', reason: 'needs_phone_number' });
    expect(r.out).not.toContain('13491208655302741918');
  });

  it('prints the reasons and the events behind them for people, finding the contact by wa_id too', async () => {
    const r = await run('contact', 'explain', '447700900123');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/marketing\s+waits until/);
    expect(r.out).toContain('131049');
    expect(r.out).not.toContain('7700900123');
  });

  it('exits 1 with what to do for an unknown contact, 2 without an argument', async () => {
    const missing = await run('contact', 'explain', '+14155550100');
    expect(missing.code).toBe(1);
    expect(missing.err).toMatch(/No contact matches \+14•+100/);
    expect((await run('contact', 'explain')).code).toBe(2);
  });
});

describe('pacer db migrate', () => {
  it('reports a current schema, and names a bad database URL as a usage error', async () => {
    const r = await run('db', 'migrate', '--json');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toMatchObject({ applied: [] });
    process.env.DATABASE_URL = 'mysql://nope';
    try {
      const bad = await run('db', 'migrate');
      expect(bad.code).toBe(2);
      expect(bad.err).toMatch(/DATABASE_URL/);
    } finally {
      delete process.env.DATABASE_URL;
    }
  });
});

describe('pacer contact show', () => {
  it('shows consent with its source and the latest events, replies included, with the number masked', async () => {
    const store = openStore({ dataDir: dir });
    const contact = await store.findContact({ phoneE164: '+447700900123' });
    await store.recordInbound(
      { contactId: contact?.id ?? -1, wamid: 'in.1', type: 'text', text: 'Where is my order?', at: Date.now() - 1000 },
      Date.now(),
    );
    await store.close();
    const r = await run('contact', 'show', '+447700900123');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^Contact #\d+ \+44•+123 \(Priya\)/);
    expect(r.out).toMatch(/marketing +granted +test · \d{4}-/);
    expect(r.out).toMatch(/utility +granted +test/);
    expect(r.out).toContain('reply (text): "Where is my order?"');
    expect(r.out).toContain('consent marketing granted (test)');
    expect(r.out).not.toContain('7700900123');
    const body = JSON.parse((await run('contact', 'show', '+447700900123', '--json')).out) as {
      contact: { phone: string; name: string };
      consent: unknown[];
      recent: Array<{ what: string }>;
    };
    expect(body.contact).toMatchObject({ name: 'Priya', phone: expect.stringMatching(/^\+44•+123$/) });
    expect(body.consent).toHaveLength(2);
    expect(body.recent[0]?.what).toBe('reply (text): "Where is my order?"');
  });

  it('says when no contact matches (exit 1) and refuses an empty argument (exit 2)', async () => {
    expect(await run('contact', 'show', '+447700900999')).toMatchObject({ code: 1, err: expect.stringContaining('No contact matches') });
    expect((await run('contact', 'show', ' ')).code).toBe(2);
  });
});
