import { NO_DISPATCHER_HERE } from '../src/app/work-signal.js';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import { startCampaign } from '../src/app/start-campaign.js';
import { SEGMENT_LIMITS } from '../src/app/segment-schema.js';
import type { Place } from './store-backends.js';
import { BACKENDS } from './store-backends.js';
import { runPacer as run } from './cli-run.js';

const ENV = ['PACER_DATA_DIR', 'DATABASE_URL', 'PACER_DB_SCHEMA', 'WHATSAPP_PHONE_NUMBER_ID'] as const;
afterEach(() => {
  for (const name of ENV) delete process.env[name];
});

const list = (n: number, prefix: string) => Array.from({ length: n }, (_, i) => `${prefix}${i}`);
const { tagsPerList, attributes: maxAttributes } = SEGMENT_LIMITS;

/** Points the CLI at a fresh place of the backend, with one contact that a segment at every limit selects. */
async function setUp(place: Place): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'pacer-segment-limits-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  process.env.PACER_DATA_DIR = place.options.dataDir ?? dir;
  if (place.options.databaseUrl !== undefined) process.env.DATABASE_URL = place.options.databaseUrl;
  if (place.options.schema !== undefined) process.env.PACER_DB_SCHEMA = place.options.schema;
  process.env.WHATSAPP_PHONE_NUMBER_ID = '106540352242922';
  const attributeNames = list(maxAttributes, 'a');
  const csv = path.join(dir, 'contacts.csv');
  writeFileSync(
    csv,
    [
      ['phone', 'consent_marketing', 'consent_utility', 'tags', ...attributeNames].join(','),
      ['+447911123401', 'yes', 'yes', [...list(tagsPerList, 't'), 'y7'].join(';'), ...list(maxAttributes, 'V')].join(','),
      ['+447911123402', 'yes', 'yes', 't0', ...list(maxAttributes, 'v')].join(','),
    ].join('\n'),
  );
  expect((await run('db', 'migrate')).code).toBe(0);
  expect((await run('import', 'contacts', csv)).code).toBe(0);
  expect((await run('template', 'add', 'spring_sale', '--category', 'marketing')).code).toBe(0);
}

const atLimit = {
  tagsAll: list(tagsPerList, 't'),
  tagsAny: list(tagsPerList, 'y'),
  tagsNone: list(tagsPerList, 'n'),
  attributes: Object.fromEntries(list(maxAttributes, 'a').map((name, i) => [name, `v${i}`])),
  consent: ['marketing', 'utility'],
  exclude: ['cooling_off', 'held', 'stopped', 'unreachable'],
};

describe.each(BACKENDS)('Segment limits at campaign create ($name)', (backend) => {
  it('refuses an oversized segment at create, naming the field and the limit, and writes nothing', async () => {
    await setUp(backend.place());
    for (const [segment, message] of [
      [{ tagsNone: list(5000, 'n') }, '--segment.tagsNone: at most 100 tags (got 5000)'],
      [{ attributes: Object.fromEntries(list(51, 'a').map((k) => [k, 'x'])) }, '--segment.attributes: at most 50 attributes (got 51)'],
      [{ exclude: Array<string>(2000).fill('held') }, '--segment.exclude: at most 4 values, each once (got 2000)'],
    ] as const) {
      const created = await run('campaign', 'create', '--name', 'Huge', '--template', 'spring_sale', '--segment', JSON.stringify(segment));
      expect(created.code).toBe(2);
      expect(created.err).toContain(message);
      expect(created.err).not.toMatch(/DATABASE_URL|database/);
    }
    const preview = await run('segment', 'preview', '--segment', JSON.stringify({ tagsAll: list(101, 't') }));
    expect(preview.code).toBe(2);
    expect(preview.err).toContain('--segment.tagsAll: at most 100 tags (got 101)');
    expect(JSON.parse((await run('campaign', 'list', '--json')).out)).toEqual([]);
  });

  it('starts a segment at every limit', async () => {
    await setUp(backend.place());
    const created = await run(
      'campaign',
      'create',
      '--name',
      'At the limit',
      '--template',
      'spring_sale',
      '--segment',
      JSON.stringify(atLimit),
      '--json',
    );
    expect(created.code, created.err).toBe(0);
    const { id } = JSON.parse(created.out) as { id: number };
    const started = await run('campaign', 'start', String(id), '--json');
    expect(started.code, started.err).toBe(0);
    expect(JSON.parse(started.out)).toMatchObject({ scanned: 2, matched: 1, inserted: 1 });
    // Every list full, and the remaining conditions too: it still starts (nobody engaged yet).
    const all = { ...atLimit, consent: ['marketing', 'utility', 'authentication', 'service'], engagedWithinDays: 3650 };
    const second = JSON.parse(
      (await run('campaign', 'create', '--name', 'All', '--template', 'spring_sale', '--segment', JSON.stringify(all), '--json')).out,
    ) as { id: number };
    const again = await run('campaign', 'start', String(second.id), '--json');
    expect(again.code, again.err).toBe(0);
    expect(JSON.parse(again.out)).toMatchObject({ scanned: 2, matched: 0 });
    expect(JSON.parse((await run('segment', 'preview', '--segment', JSON.stringify(atLimit), '--json')).out)).toMatchObject({ matched: 1 });
  });

  it('refuses to start a stored segment over the limits with a segment error, not a database one, and queues nothing', async () => {
    const place = backend.place();
    await setUp(place);
    const store = place.open();
    const template = await store.getTemplate('spring_sale', 'en_US');
    const [senderId] = await store.upsertSenders(
      [
        {
          phoneNumberId: '106540352242922',
          displayNumber: '106540352242922',
          qualityRating: null,
          throughputMps: 80,
          messagingLimitTier: null,
          state: 'ok',
          stateReason: null,
          stateUntil: null,
        },
      ],
      0,
    );
    if (template === null || senderId === undefined) throw new Error('set-up failed');
    // As a segment written before the limits existed would be.
    const id = await store.createCampaign(
      {
        name: 'Old',
        templateId: template.id,
        senderId,
        segment: { tagsNone: list(5000, 'n') },
        scheduledAt: null,
        endsAt: null,
        policyPreset: 'meta',
        status: 'draft',
      },
      0,
    );
    await expect(startCampaign(store, id, { phoneNumberId: '106540352242922' }, 0, NO_DISPATCHER_HERE)).rejects.toThrow(
      `campaign ${id} segment.tagsNone: at most 100 tags (got 5000)`,
    );
    const started = await run('campaign', 'start', String(id));
    expect(started.code).not.toBe(0);
    expect(started.err).toContain('segment.tagsNone: at most 100 tags');
    expect(started.err).not.toContain('DATABASE_URL');
    expect((await store.campaignCounters(id)).total).toBe(0);
  });
});
