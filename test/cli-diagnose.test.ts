import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore } from '../src/adapters/storage/open-store.js';
import { MINUTE } from '../src/core/time.js';
import { runPacer as run } from './cli-run.js';

let dir: string;
const PHONES = Array.from({ length: 30 }, (_, i) => `+4479111234${String(i).padStart(2, '0')}`);

beforeEach(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'pacer-diagnose-'));
  process.env.PACER_DATA_DIR = dir;
  process.env.WHATSAPP_PHONE_NUMBER_ID = '106540352242922';
  const csv = path.join(dir, 'c.csv');
  writeFileSync(csv, `phone,name,consent_marketing,consent_utility\n${PHONES.map((p, i) => `${p},N${i},yes,yes`).join('\n')}\n`);
  expect((await run('import', 'contacts', csv)).code).toBe(0);
  expect((await run('template', 'add', 'spring_sale', '--category', 'marketing')).code).toBe(0);
});

afterEach(() => {
  delete process.env.PACER_DATA_DIR;
  delete process.env.WHATSAPP_PHONE_NUMBER_ID;
  rmSync(dir, { recursive: true, force: true });
});

/** Creates and starts a campaign, then plays its sends as the dispatcher and webhooks would: one in `capEvery` is capped. */
async function playedCampaign(capEvery: number): Promise<number> {
  const created = await run('campaign', 'create', '--name', 'Spring', '--template', 'spring_sale', '--json');
  const { id } = JSON.parse(created.out) as { id: number };
  expect((await run('campaign', 'start', String(id))).code).toBe(0);
  const store = openStore({ dataDir: dir });
  try {
    const at = Date.now();
    const rows = await store.claimDue({ owner: 'test', now: Date.now(), leaseMs: MINUTE, limit: 100 });
    expect(rows).toHaveLength(PHONES.length);
    for (const [i, row] of rows.entries()) {
      const wamid = `wamid.${i}`;
      await store.appendDecisions([
        { outboxId: row.id, contactId: row.contactId, kind: 'send', reason: 'ok', explanation: 'sent', until: null, at },
      ]);
      await store.recordIntent(row.id, 'test', at);
      await store.recordAccepted(row.id, 'test', wamid, at);
      const capped = i % capEvery === 0;
      await store.appendMessageEvent(
        { wamid, status: capped ? 'failed' : 'delivered', at, errorCode: capped ? 131049 : null, inboxId: null, outboxId: row.id },
        at,
      );
      await store.recordDelivery({ wamid, outboxId: row.id }, capped ? 'failed' : 'delivered', capped ? 131049 : null, at);
    }
  } finally {
    await store.close();
  }
  return id;
}

describe('pacer diagnose', () => {
  it('prints the verdict, why, what to do and the investigation', async () => {
    const id = await playedCampaign(5);
    const human = await run('diagnose', '--campaign', String(id));
    expect(human.code).toBe(0);
    expect(human.out).toMatch(/^Verdict: recipient level\n/);
    expect(human.out).toContain(`Scope: campaign #${id} Spring (spring_sale (en_US))`);
    expect(human.out).toContain('  • 100.0% of failed messages are per-user caps (6 of 6); 20.0% of recipients failed.');
    expect(human.out).toMatch(/What to do: .*cool-off/);
    expect(human.out).toContain('  volume      30 send attempt(s) per day; no sends in the 28 day(s) before to compare with.');
    expect(human.out).toContain(
      '  scope       30 message(s) to 30 recipient(s) in 30 send attempt(s); 6 recipient(s) (20.0%) had a failure.',
    );
    expect(human.out).toContain('  consent     Of 6 affected recipient(s): marketing consent granted 100.0%');
    // Phone numbers never appear in the report.
    expect(human.out).not.toMatch(/4479111234/);
  });

  it('prints JSON with the verdict, the evidence and the facts', async () => {
    const id = await playedCampaign(2);
    const json = await run('diagnose', '--campaign', String(id), '--since', '2h', '--json');
    expect(json.code).toBe(0);
    const report = JSON.parse(json.out) as Record<string, unknown>;
    expect(report).toMatchObject({
      verdict: 'recipient_level',
      subject: null,
      scope: { campaign: { id, name: 'Spring', template: 'spring_sale (en_US)' } },
      facts: { sends: { messages: 30, recipients: 30, attempts: 30 }, failures: [{ code: 131049, messages: 15, recipients: 15 }] },
    });
    const evidence = report['evidence'] as { topic: string; decisive: boolean; text: string }[];
    expect(evidence.filter((e) => e.decisive).map((e) => e.text)[0]).toBe(
      '100.0% of failed messages are per-user caps (15 of 15); 50.0% of recipients failed.',
    );
    expect(evidence.map((e) => e.topic)).toEqual(
      expect.arrayContaining(['scope', 'templates', 'consent', 'engagement', 'volume', 'account']),
    );
  });

  it('diagnoses all traffic, and says when there is nothing to judge', async () => {
    const empty = await run('diagnose', '--json');
    expect(empty.code).toBe(0);
    expect(JSON.parse(empty.out)).toMatchObject({
      verdict: 'insufficient_data',
      scope: { campaign: null },
      facts: { sends: { messages: 0 } },
    });
    await playedCampaign(5);
    expect(JSON.parse((await run('diagnose', '--since', '1d', '--json')).out)).toMatchObject({
      verdict: 'recipient_level',
      facts: { sends: { messages: 30 } },
    });
    // A window after the sends holds none of them.
    const later = new Date(Date.now() - 1).toISOString();
    expect(JSON.parse((await run('diagnose', '--since', later, '--json')).out)).toMatchObject({ verdict: 'insufficient_data' });
  });

  it('names bad options (exit 2) and unknown campaigns (exit 1)', async () => {
    const since = await run('diagnose', '--since', 'yesterday');
    expect(since.code).toBe(2);
    expect(since.err).toContain('--since must be a duration like 7d, 36h, 90m, 2w or an ISO 8601 time, got "yesterday"');
    const future = await run('diagnose', '--since', '2999-01-01T00:00:00Z');
    expect(future.code).toBe(2);
    expect(future.err).toContain('is not in the past');
    const badDate = await run('diagnose', '--since', '2026-13-45');
    expect(badDate.code).toBe(2);
    expect(badDate.err).toContain('not a valid ISO 8601 time');
    const campaign = await run('diagnose', '--campaign', 'abc');
    expect(campaign.code).toBe(2);
    expect(campaign.err).toContain('--campaign must be a campaign id');
    const unknown = await run('diagnose', '--campaign', '99');
    expect(unknown.code).toBe(1);
    expect(unknown.err).toContain('campaign 99 does not exist');
  });
});
