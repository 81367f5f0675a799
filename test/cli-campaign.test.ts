import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runPacer } from './cli-run.js';

let dir: string;
const run = runPacer;

beforeEach(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'pacer-campaign-'));
  process.env.PACER_DATA_DIR = dir;
  process.env.WHATSAPP_PHONE_NUMBER_ID = '106540352242922';
  const csv = path.join(dir, 'c.csv');
  writeFileSync(
    csv,
    'phone,name,consent_marketing,consent_utility,tags\n+447911123401,A,yes,yes,vip\n+447911123402,B,no,yes,vip\n+447911123403,C,yes,yes,\n',
  );
  expect((await run('import', 'contacts', csv)).code).toBe(0);
});

afterEach(() => {
  delete process.env.PACER_DATA_DIR;
  delete process.env.WHATSAPP_PHONE_NUMBER_ID;
  rmSync(dir, { recursive: true, force: true });
});

describe('pacer campaign', () => {
  it('creates, starts once, pauses, resumes and cancels a campaign, reporting counters', async () => {
    expect((await run('template', 'add', 'spring_sale', '--category', 'marketing')).code).toBe(0);
    const created = await run(
      'campaign',
      'create',
      '--name',
      'Spring',
      '--template',
      'spring_sale',
      '--segment',
      '{"tagsAll":["vip"]}',
      '--json',
    );
    expect(created.code).toBe(0);
    const { id, segment } = JSON.parse(created.out) as { id: number; segment: unknown };
    expect(segment).toEqual({ tagsAll: ['vip'], consent: ['marketing'] }); // marketing needs marketing consent
    const started = JSON.parse((await run('campaign', 'start', String(id), '--json')).out) as { matched: number; inserted: number };
    expect(started).toMatchObject({ matched: 1, inserted: 1 });
    expect(JSON.parse((await run('campaign', 'start', String(id), '--json')).out)).toMatchObject({ inserted: 0 });
    const status = await run('campaign', 'status', String(id));
    expect(status.out).toMatch(/1 recipient\(s\):\n +1 {2}Waiting to be sent/);
    expect(status.out).toContain('Messaging limit: not known yet (Meta names it in a webhook); up to 80 messages/s.');
    expect(JSON.parse((await run('campaign', 'status', String(id), '--json')).out)).toMatchObject({
      pace: { tier: null, waiting: 1, daysNeeded: 1 },
    });
    expect(JSON.parse((await run('campaign', 'pause', String(id), '--json')).out)).toMatchObject({
      status: 'paused',
      pauseReason: 'paused by an operator',
    });
    expect(JSON.parse((await run('campaign', 'resume', String(id), '--json')).out)).toMatchObject({ status: 'running', pauseReason: null });
    const cancelled = JSON.parse((await run('campaign', 'cancel', String(id), '--json')).out) as {
      status: string;
      counters: Record<string, number>;
    };
    expect(cancelled).toMatchObject({ status: 'cancelled', counters: { cancelled: 1, total: 1 } });
    const again = await run('campaign', 'resume', String(id));
    expect(again.code).toBe(1);
    expect(again.err).toMatch(/is cancelled; it cannot be resumed/);
    expect(JSON.parse((await run('campaign', 'list', '--json')).out)).toHaveLength(1);
  });

  it('previews a segment and names bad input', async () => {
    const preview = await run('segment', 'preview', '--segment', '{"consent":["marketing"]}', '--json');
    expect(JSON.parse(preview.out)).toMatchObject({ contacts: 3, matched: 2 });
    const typo = await run('segment', 'preview', '--segment', '{"tagAll":["vip"]}');
    expect(typo.code).toBe(2);
    expect(typo.err).toMatch(/tagAll|Unrecognized key/);
    expect((await run('campaign', 'create', '--name', 'x', '--template', 'missing')).code).toBe(2);
    expect((await run('campaign', 'start', 'abc')).code).toBe(2);
    expect((await run('campaign', 'status', '99')).code).toBe(1);
  });
});
