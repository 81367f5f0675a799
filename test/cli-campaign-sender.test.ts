import { afterEach, describe, expect, it } from 'vitest';
import { runPacer as run } from './cli-run.js';
import { FINE_ID, seedSenders, STOP_REASON, STOPPED_ID, VERIFIED_NAME } from './senders-seed.js';
import { BACKENDS } from './store-backends.js';

const ENV = ['PACER_DATA_DIR', 'DATABASE_URL', 'PACER_DB_SCHEMA'] as const;
afterEach(() => {
  for (const name of ENV) delete process.env[name];
});

describe.each(BACKENDS)('pacer campaign status: the number it sends from ($name)', (backend) => {
  it('names the number (display number and id) and its state, in text and JSON', async () => {
    const place = backend.place();
    if (place.options.dataDir !== undefined) process.env.PACER_DATA_DIR = place.options.dataDir;
    if (place.options.databaseUrl !== undefined) process.env.DATABASE_URL = place.options.databaseUrl;
    if (place.options.schema !== undefined) process.env.PACER_DB_SCHEMA = place.options.schema;
    const store = place.open();
    await store.migrate();
    const seed = await seedSenders(store, Date.now());

    const winter = await run('campaign', 'status', String(seed.winter));
    expect(winter.code).toBe(0);
    expect(winter.out.split('\n')[1]).toBe(`  From +1 555-0101 (${STOPPED_ID}): state stopped, cannot send: ${STOP_REASON}.`);
    expect(JSON.parse((await run('campaign', 'status', String(seed.winter), '--json')).out)).toMatchObject({
      senderId: seed.stopped,
      sender: { phoneNumberId: STOPPED_ID, displayNumber: '+1 555-0101', state: 'stopped', canSend: false, problems: [STOP_REASON] },
    });
    const spring = await run('campaign', 'status', String(seed.spring));
    expect(spring.out).toContain(`  From +1 555-0100 ${VERIFIED_NAME} (${FINE_ID}): state ok, sending.`);

    // Pacer's state is ok, but Meta no longer reports the number CONNECTED: it cannot send either.
    await store.setSenderProfile(FINE_ID, {
      businessAccountId: 'waba-1',
      portfolioId: 'portfolio-9',
      verifiedName: VERIFIED_NAME,
      metaStatus: 'RESTRICTED',
      nameStatus: 'APPROVED',
      throughputLevel: 'STANDARD',
      syncedAt: Date.now(),
    });
    const restricted = await run('campaign', 'status', String(seed.spring));
    expect(restricted.out).toContain(
      `  From +1 555-0100 ${VERIFIED_NAME} (${FINE_ID}): state ok, cannot send: Meta reports the number as RESTRICTED; it sends again once Meta reports it CONNECTED.`,
    );
    // A pool: one line per number, its own first; a number Pacer does not know is named.
    const summer = await run('campaign', 'status', String(seed.summer));
    expect(summer.out).toContain(
      [
        '  From 2 numbers (pool: spread):',
        `    +1 555-0100 ${VERIFIED_NAME} (${FINE_ID}): state ok, cannot send: Meta reports the number as RESTRICTED; it sends again once Meta reports it CONNECTED.`,
        `    +1 555-0101 (${STOPPED_ID}): state stopped, cannot send: ${STOP_REASON}.`,
      ].join('\n'),
    );
    const templateId = (await store.getCampaign(seed.summer))?.templateId ?? -1;
    const odd = await store.createCampaign(
      {
        name: 'Odd',
        templateId,
        senderId: seed.stopped,
        segment: {},
        scheduledAt: null,
        policyPreset: 'meta',
        status: 'draft',
        senderPool: { by: 'country', countries: { GB: STOPPED_ID }, otherwise: '106540352249999' },
      },
      Date.now(),
    );
    const oddStatus = await run('campaign', 'status', String(odd), '--json');
    expect(JSON.parse(oddStatus.out)).toMatchObject({
      sender: { phoneNumberId: STOPPED_ID },
      sendsFrom: { pool: 'country', senders: [{ phoneNumberId: STOPPED_ID }], unknown: ['106540352249999'] },
    });
    expect((await run('campaign', 'status', String(odd))).out).toContain(
      '    106540352249999: not a number Pacer knows (pacer sender sync reads them from Meta).',
    );

    const list = await run('campaign', 'list');
    expect(list.out).toContain(`From +1 555-0101 (${STOPPED_ID}): state stopped`);
  });
});
