import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DAY, HOUR } from '../src/core/time.js';
import { runPacer as run } from './cli-run.js';
import { BACKENDS } from './store-backends.js';

const ENV = ['PACER_DATA_DIR', 'DATABASE_URL', 'PACER_DB_SCHEMA', 'WHATSAPP_PHONE_NUMBER_ID'] as const;
afterEach(() => {
  for (const name of ENV) delete process.env[name];
});

const minute = (at: number) => `${new Date(at).toISOString().slice(0, 16).replace('T', ' ')} UTC`;

describe.each(BACKENDS)('pacer campaign status: why recipients wait ($name)', (backend) => {
  it("groups rows deferred by the campaign's own frequency cap with until when, in text and JSON", async () => {
    const place = backend.place();
    const dir = mkdtempSync(path.join(tmpdir(), 'pacer-waiting-'));
    try {
      process.env.PACER_DATA_DIR = place.options.dataDir ?? dir;
      if (place.options.databaseUrl !== undefined) process.env.DATABASE_URL = place.options.databaseUrl;
      if (place.options.schema !== undefined) process.env.PACER_DB_SCHEMA = place.options.schema;
      process.env.WHATSAPP_PHONE_NUMBER_ID = '106540352242922';
      const csv = path.join(dir, 'c.csv');
      writeFileSync(csv, 'phone,name,consent_marketing\n+447911123401,Ana,yes\n+447911123402,Ben,yes\n+447911123403,Cy,yes\n');
      expect((await run('import', 'contacts', csv)).code).toBe(0);
      expect((await run('template', 'add', 'spring_sale', '--category', 'marketing')).code).toBe(0);
      const bad = await run('campaign', 'create', '--name', 'Spring', '--template', 'spring_sale', '--frequency-cap', '2 a week');
      expect(bad).toMatchObject({ code: 2, err: expect.stringContaining('--frequency-cap must be like 1/7d') as string });
      const created = await run('campaign', 'create', '--name', 'Spring', '--template', 'spring_sale', '--frequency-cap', '1/7d', '--json');
      const { id, frequencyCap } = JSON.parse(created.out) as { id: number; frequencyCap: unknown };
      expect(frequencyCap).toEqual({ max: 1, windowMs: 7 * DAY });
      expect((await run('campaign', 'start', String(id))).code).toBe(0);

      // Two rows deferred by the cap (a worker's decisions, written through the store), one still due.
      const store = place.open();
      const now = Date.now();
      const [a, b] = await store.claimDue({ owner: 't', now: now + 1000, leaseMs: HOUR, limit: 2 });
      if (a === undefined || b === undefined) throw new Error('two rows expected');
      for (const [row, until] of [
        [a, now + 6 * DAY],
        [b, now + 7 * DAY],
      ] as const) {
        await store.appendDecisions([
          { outboxId: row.id, contactId: row.contactId, kind: 'defer', reason: 'frequency_cap', explanation: 'cap', until, at: now },
        ]);
        await store.reschedule(row.id, 't', { status: 'queued', until, capAttempt: false, errorCode: null }, now);
      }
      await store.close();

      const status = await run('campaign', 'status', String(id));
      expect(status.code).toBe(0);
      expect(status.out).toContain(`      2  Deferred by your frequency cap, until ${minute(now + 6 * DAY)} to ${minute(now + 7 * DAY)}`);
      expect(status.out).toMatch(/ {6}1 {2}Waiting to be sent, due \d{4}-\d\d-\d\d \d\d:\d\d UTC/);
      expect(status.out).toContain("Frequency cap: 1 per 7 days (this campaign's own)");
      const json = JSON.parse((await run('campaign', 'status', String(id), '--json')).out) as {
        outcomes: unknown[];
        frequencyCapInEffect: unknown;
      };
      expect(json.frequencyCapInEffect).toEqual({ cap: { max: 1, windowMs: 7 * DAY }, from: 'campaign' });
      expect(json.outcomes).toContainEqual({
        key: 'deferred:frequency_cap',
        outcome: 'deferred',
        label: 'Deferred by your frequency cap',
        errorClass: null,
        count: 2,
        codes: [],
        until: { first: new Date(now + 6 * DAY).toISOString(), last: new Date(now + 7 * DAY).toISOString() },
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
