import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore } from '../src/adapters/storage/open-store.js';
import { runPacer as run } from './cli-run.js';

let dir: string;

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'pacer-send-'));
  process.env.PACER_DATA_DIR = dir;
  process.env.WHATSAPP_PHONE_NUMBER_ID = '106540352242922';
});

afterEach(() => {
  delete process.env.PACER_DATA_DIR;
  delete process.env.WHATSAPP_PHONE_NUMBER_ID;
  rmSync(dir, { recursive: true, force: true });
});

describe('pacer send --reference', () => {
  it("keeps the caller's reference with the message and prints the message id", async () => {
    const sent = await run(
      'send',
      '--to',
      '+447911123456',
      '--category',
      'service',
      '--text',
      'Your table is ready',
      '--key',
      'k-1',
      '--reference',
      'TABLE-7',
      '--json',
    );
    expect(sent.code, sent.err).toBe(0);
    const json = JSON.parse(sent.out) as { id: number; reference: string; queued: boolean };
    expect(json).toMatchObject({ queued: true, reference: 'TABLE-7' });
    const store = openStore({ dataDir: dir });
    try {
      expect(await store.getOutbox(json.id)).toMatchObject({ idempotencyKey: 'k-1', clientReference: 'TABLE-7' });
    } finally {
      await store.close();
    }
    const again = await run('send', '--to', '+447911123456', '--category', 'service', '--text', 'Your table is ready', '--key', 'k-1');
    expect(again.out).toContain(`Already queued under key k-1 as message #${json.id}, reference TABLE-7`);
  });

  it('refuses an empty or overlong reference with a usage error, queueing nothing', async () => {
    for (const reference of ['', ' ', 'x'.repeat(201)]) {
      const r = await run('send', '--to', '+447911123456', '--category', 'service', '--text', 'hi', '--reference', reference);
      expect(r.code).toBe(2);
      expect(r.err).toContain('--reference must be 1 to 200 characters');
    }
    const store = openStore({ dataDir: dir });
    try {
      await store.migrate();
      expect(await store.outboxTotals()).toMatchObject({ byStatus: { queued: 0 } });
    } finally {
      await store.close();
    }
  });
});
