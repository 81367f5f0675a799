import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore } from '../src/adapters/storage/open-store.js';
import { HOUR } from '../src/core/time.js';
import { runPacer as run } from './cli-run.js';

let dir: string;

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'pacer-recipients-'));
  process.env.PACER_DATA_DIR = dir;
  process.env.WHATSAPP_PHONE_NUMBER_ID = '106540352242922';
});

afterEach(() => {
  delete process.env.PACER_DATA_DIR;
  delete process.env.WHATSAPP_PHONE_NUMBER_ID;
  rmSync(dir, { recursive: true, force: true });
});

/** Three recipients: one capped with a retry tomorrow, one held for a window, one skipped (stopped). */
async function campaignWithWaitingRows(): Promise<{ id: number; retryRow: number; heldRow: number }> {
  const csv = path.join(dir, 'c.csv');
  writeFileSync(csv, 'phone,name,consent_marketing\n+447911123401,Ana,yes\n+447911123402,Ben,yes\n+447911123403,Cy,yes\n');
  expect((await run('import', 'contacts', csv)).code).toBe(0);
  expect((await run('template', 'add', 'spring_sale', '--category', 'marketing')).code).toBe(0);
  const { id } = JSON.parse((await run('campaign', 'create', '--name', 'Spring', '--template', 'spring_sale', '--json')).out) as {
    id: number;
  };
  expect((await run('campaign', 'start', String(id))).code).toBe(0);
  const store = openStore({ dataDir: dir });
  try {
    const now = Date.now();
    const [a, b, c] = await store.claimDue({ owner: 't', now: now + 1000, leaseMs: HOUR, limit: 3 });
    if (a === undefined || b === undefined || c === undefined) throw new Error('three rows expected');
    await store.recordIntent(a.id, 't', now);
    await store.recordAccepted(a.id, 't', 'wamid.a', now);
    await store.recordDelivery({ wamid: 'wamid.a', outboxId: a.id }, 'failed', 131049, now);
    await store.requeue(a.id, { status: 'queued', until: now + 24 * HOUR, capAttempt: true, errorCode: 131049 }, now);
    await store.reschedule(b.id, 't', { status: 'held', until: null, capAttempt: false, errorCode: 130472 }, now);
    await store.appendDecisions([
      { outboxId: c.id, contactId: c.contactId, kind: 'skip', reason: 'marketing_stopped', explanation: 'stopped', until: null, at: now },
    ]);
    await store.complete(c.id, 't', 'skipped', now);
    return { id, retryRow: a.id, heldRow: b.id };
  } finally {
    await store.close();
  }
}

describe('pacer campaign status and recipients', () => {
  it('says what happened to each group of recipients and lists those still waiting', async () => {
    const { id, retryRow, heldRow } = await campaignWithWaitingRows();
    const status = await run('campaign', 'status', String(id));
    expect(status.code).toBe(0);
    expect(status.out).toMatch(/1 {2}Capped by WhatsApp, retry scheduled \(131049 × 1\)/);
    expect(status.out).toMatch(/1 {2}Held until the contact writes in \(130472 × 1\)/);
    expect(status.out).toMatch(/1 {2}Skipped: the contact stopped marketing/);
    const json = JSON.parse((await run('campaign', 'status', String(id), '--json')).out) as {
      outcomes: Array<{ key: string; count: number }>;
    };
    expect(json.outcomes.map((g) => g.key).sort()).toEqual(['capped_pending_retry', 'held_for_window', 'skipped:marketing_stopped']);

    const retries = await run('campaign', 'recipients', String(id), '--waiting', 'retry');
    expect(retries.code).toBe(0);
    expect(retries.out).toContain(`row ${retryRow} · contact`);
    expect(retries.out).toMatch(/last error 131049 · next attempt \d{4}-\d\d-\d\dT/);
    expect(retries.out).not.toContain('447911123401'); // no phone numbers in the listing
    const held = JSON.parse((await run('campaign', 'recipients', String(id), '--waiting', 'held', '--json')).out) as {
      items: Array<{ id: number }>;
      nextAfter: number | null;
    };
    expect(held).toEqual({ items: [expect.objectContaining({ id: heldRow })], nextAfter: null });
    // Paging: one per page points at the next page; after the last row there is nothing.
    const first = JSON.parse((await run('campaign', 'recipients', String(id), '--waiting', 'held', '--limit', '1', '--json')).out) as {
      nextAfter: number;
    };
    expect(first.nextAfter).toBe(heldRow);
    expect((await run('campaign', 'recipients', String(id), '--waiting', 'held', '--after', String(heldRow))).out).toContain(
      'held for a window: none',
    );
  });

  it('refuses bad arguments with exit code 2 and an unknown campaign with 1', async () => {
    expect(await run('campaign', 'recipients', '1', '--waiting', 'later')).toMatchObject({
      code: 2,
      err: expect.stringContaining('--waiting must be retry or held'),
    });
    expect(await run('campaign', 'recipients', '1', '--waiting', 'held', '--limit', '0')).toMatchObject({
      code: 2,
      err: expect.stringContaining('--limit must be'),
    });
    expect(await run('campaign', 'recipients', '1', '--waiting', 'held', '--after', '-3')).toMatchObject({
      code: 2,
      err: expect.stringContaining('--after must be'),
    });
    expect((await run('campaign', 'recipients', '1')).code).toBe(2); // --waiting is required
    expect(await run('campaign', 'recipients', '42', '--waiting', 'retry')).toMatchObject({
      code: 1,
      err: expect.stringContaining('campaign 42 does not exist'),
    });
  });
});
