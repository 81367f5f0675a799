import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore } from '../src/adapters/storage/open-store.js';
import { runPacer } from './cli-run.js';
import { seedPreview } from './preview-seed.js';

const T0 = Date.UTC(2026, 5, 1, 9);
let dir: string;
let campaignId: number;

beforeEach(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'pacer-preview-'));
  process.env.PACER_DATA_DIR = dir;
  const store = openStore({ dataDir: dir });
  try {
    await store.migrate();
    ({ campaignId } = await seedPreview(store, T0));
  } finally {
    await store.close();
  }
});

afterEach(() => {
  delete process.env.PACER_DATA_DIR;
  rmSync(dir, { recursive: true, force: true });
});

describe('pacer campaign preview', () => {
  it('prints each sample as its recipient reads it, then the audience and the skip groups, numbers masked', async () => {
    const r = await runPacer('campaign', 'preview', String(campaignId));
    expect(r.code).toBe(0);
    expect(r.out).toContain(`Campaign #${campaignId} · template coupon_drop (en_US, marketing)`);
    expect(r.out).toContain(
      [
        '  1. contact 1 · +44•••••••101',
        '    *Your coupon*',
        '    Hi Ada, your ADA15 coupon is waiting.',
        '    Tap Stop promotions to opt out',
        '    [ Shop → https://shop.example/c/ADA15 ]',
        '    [ Stop promotions ]',
      ].join('\n'),
    );
    expect(r.out).toContain('Hi Bob, your BOB10 coupon is waiting.');
    expect(r.out).toContain('  3. contact 3 · +44•••••••103 · would be skipped (missing_parameter): body {{1}}: first_name is missing');
    expect(r.out).toContain('Audience: 7 matched · 2 would be sent · 5 would be skipped');
    expect(r.out).toMatch(/ {6}2 {2}missing_parameter · body\.1 · body \{\{1\}\}: first_name is missing/);
    expect(r.out).toMatch(/ {6}1 {2}invalid_parameter · body\.1 · body \{\{1\}\}: first_name is not text/);
    expect(r.out).not.toMatch(/7700900\d{3}/);
  });

  it('prints the JSON fields, masked, and previews a contact the segment leaves out', async () => {
    const r = await runPacer('campaign', 'preview', String(campaignId), '--contact', '+44 7700 900108', '--json');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toEqual({
      campaignId,
      template: { name: 'coupon_drop', language: 'en_US', category: 'marketing', placeholdersKnown: true },
      notice: null,
      samples: [
        {
          contactId: 8,
          to: '+44•••••••108',
          inSegment: false,
          preview: {
            header: 'Your coupon',
            body: 'Hi Fay, your FAY20 coupon is waiting.',
            footer: 'Tap Stop promotions to opt out',
            buttons: ['Shop → https://shop.example/c/FAY20', 'Stop promotions'],
          },
        },
      ],
      audience: {
        matched: 7,
        wouldSend: 2,
        skipped: expect.arrayContaining([expect.objectContaining({ slot: 'body.1', count: 2 })]),
        complete: true,
      },
    });
    const human = await runPacer('campaign', 'preview', String(campaignId), '--contact', '447700900108');
    expect(human.out).toContain('  1. contact 8 · +44•••••••108 · not in the segment');
    const fewer = JSON.parse((await runPacer('campaign', 'preview', String(campaignId), '--sample', '1', '--json')).out) as {
      samples: unknown[];
    };
    expect(fewer.samples).toHaveLength(1);
  });

  it('names bad input (exit 2), a missing campaign and an unknown contact (exit 1)', async () => {
    for (const sample of ['21', '-1', 'two', '1.5']) {
      const bad = await runPacer('campaign', 'preview', String(campaignId), '--sample', sample);
      expect(bad.code, sample).toBe(2);
      expect(bad.err).toContain('--sample must be a whole number from 0 to 20');
    }
    expect((await runPacer('campaign', 'preview', 'x')).code).toBe(2);
    const missing = await runPacer('campaign', 'preview', '99');
    expect(missing.code).toBe(1);
    expect(missing.err).toContain('campaign 99 does not exist');
    const stranger = await runPacer('campaign', 'preview', String(campaignId), '--contact', '+447700900999');
    expect(stranger.code).toBe(1);
    expect(stranger.err).toContain('No contact matches +44•••••••999');
  });
});
