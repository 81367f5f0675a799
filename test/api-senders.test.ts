import { describe, expect, it } from 'vitest';
import { body, startApi, T0 } from './api-harness.js';
import { FINE_ID, PORTFOLIO, seedSenders, STOP_REASON, STOPPED_ID, VERIFIED_NAME } from './senders-seed.js';
import { BACKENDS } from './store-backends.js';

interface SenderJson {
  id: number;
  phoneNumberId: string;
  canSend: boolean;
  sending: string;
  problems: string[];
  messagingLimit: { perDay: number | null; usedLast24h: number; portfolioNumbers: string[] };
  campaigns: Array<{ id: number; name: string; status: string }>;
  history?: Array<{ at: string; source: string }>;
}

describe.each(BACKENDS)('REST API: sender numbers and their metrics ($name)', (backend) => {
  it('needs a token', async () => {
    const rig = await startApi(backend);
    await seedSenders(rig.store, T0);
    for (const url of ['/api/v1/senders', `/api/v1/senders/${FINE_ID}`]) {
      expect(await rig.call('GET', url, { token: null }), url).toMatchObject({ status: 401, json: { error: 'unauthorized' } });
      expect((await rig.call('GET', url, { token: 'pacer_wrong' })).status, url).toBe(401);
    }
  });

  it('lists every number with its health, the portfolio limit and its campaigns', async () => {
    const rig = await startApi(backend);
    const seed = await seedSenders(rig.store, T0);
    const r = await rig.call('GET', '/api/v1/senders');
    expect(r.status).toBe(200);
    const items = body<{ items: SenderJson[] }>(r).items;
    expect(items.map((s) => s.phoneNumberId).sort()).toEqual([FINE_ID, STOPPED_ID]);
    const fine = items.find((s) => s.phoneNumberId === FINE_ID);
    expect(fine).toEqual({
      id: seed.fine,
      phoneNumberId: FINE_ID,
      displayNumber: '+1 555-0100',
      verifiedName: VERIFIED_NAME,
      businessAccountId: 'waba-1',
      portfolioId: PORTFOLIO,
      metaStatus: 'CONNECTED',
      nameStatus: 'APPROVED',
      state: 'ok',
      stateReason: null,
      stateUntil: null,
      canSend: true,
      sending: 'sends',
      problems: [],
      resumesAt: null,
      qualityRating: 'GREEN',
      throughputMps: 80,
      throughputLevel: 'STANDARD',
      messagingLimit: {
        tier: 'TIER_1K',
        perDay: 1000,
        unlimited: false,
        portfolio: PORTFOLIO,
        portfolioNumbers: expect.arrayContaining([FINE_ID, STOPPED_ID]) as unknown,
        usedLast24h: 3,
      },
      campaigns: [
        { id: seed.spring, name: 'Spring <sale>', status: 'running' },
        { id: seed.summer, name: 'Summer', status: 'running' },
      ],
      syncedAt: new Date(T0 - 3_600_000).toISOString(),
      updatedAt: expect.any(String) as unknown,
    });
    expect(items.find((s) => s.phoneNumberId === STOPPED_ID)).toMatchObject({
      state: 'stopped',
      stateReason: STOP_REASON,
      canSend: false,
      sending: 'cannot_send',
      problems: [STOP_REASON],
      metaStatus: null,
      syncedAt: null,
      messagingLimit: { usedLast24h: 3 },
      campaigns: [
        { id: seed.winter, name: 'Winter', status: 'paused' },
        { id: seed.summer, name: 'Summer', status: 'running' },
      ],
    });
    expect(fine).not.toHaveProperty('history');
  });

  it('shows one number with its 30 days of changes, and says clearly when a number is unknown or the id is not one', async () => {
    const rig = await startApi(backend);
    await seedSenders(rig.store, T0);
    const r = await rig.call('GET', `/api/v1/senders/${FINE_ID}`);
    expect(r.status).toBe(200);
    const one = body<SenderJson>(r);
    expect(one).toMatchObject({ phoneNumberId: FINE_ID, canSend: true, messagingLimit: { perDay: 1000, usedLast24h: 3 } });
    expect(one.history).toEqual([
      {
        at: new Date(T0 - 5 * 86_400_000).toISOString(),
        qualityRating: 'FLAGGED',
        messagingLimitTier: 'TIER_1K',
        state: 'ok',
        stateReason: null,
        source: 'phone_quality FLAGGED',
      },
      expect.objectContaining({ source: 'phone_quality UNFLAGGED', qualityRating: 'GREEN' }),
    ]);
    const stopped = body<SenderJson>(await rig.call('GET', `/api/v1/senders/${STOPPED_ID}`));
    expect(stopped.history?.map((c) => c.source)).toEqual(['send 190']);

    expect(await rig.call('GET', '/api/v1/senders/999000111')).toEqual(
      expect.objectContaining({
        status: 404,
        json: {
          error: 'unknown_sender',
          message: 'no sender number 999000111: GET /api/v1/senders lists the known ones; pacer sender sync reads them from Meta',
        },
      }),
    );
    expect(await rig.call('GET', '/api/v1/senders/not-a-number')).toMatchObject({
      status: 400,
      json: { error: 'invalid_params', issues: [{ path: 'phoneNumberId', message: "Meta's phone number id: digits only" }] },
    });
  });

  it('names the number a campaign sends from, and whether it can send', async () => {
    const rig = await startApi(backend);
    const seed = await seedSenders(rig.store, T0);
    expect(body(await rig.call('GET', `/api/v1/campaigns/${seed.winter}`))).toMatchObject({
      senderId: seed.stopped,
      sender: {
        id: seed.stopped,
        phoneNumberId: STOPPED_ID,
        displayNumber: '+1 555-0101',
        state: 'stopped',
        stateReason: STOP_REASON,
        canSend: false,
        problems: [STOP_REASON],
      },
    });
    expect(body(await rig.call('GET', `/api/v1/campaigns/${seed.spring}`))).toMatchObject({
      sender: {
        phoneNumberId: FINE_ID,
        displayNumber: '+1 555-0100',
        verifiedName: VERIFIED_NAME,
        state: 'ok',
        canSend: true,
        problems: [],
      },
      sendsFrom: { pool: null, senders: [{ phoneNumberId: FINE_ID }], unknown: [] },
    });
    const summer = body<{ sender: { phoneNumberId: string }; sendsFrom: { pool: string; senders: SenderJson[]; unknown: string[] } }>(
      await rig.call('GET', `/api/v1/campaigns/${seed.summer}`),
    );
    expect(summer.sender.phoneNumberId).toBe(FINE_ID);
    expect(summer.sendsFrom.pool).toBe('spread');
    expect(summer.sendsFrom.senders.map((s) => [s.phoneNumberId, s.canSend])).toEqual([
      [FINE_ID, true],
      [STOPPED_ID, false],
    ]);
    expect(summer.sendsFrom.unknown).toEqual([]);
  });

  it('exposes each number’s throughput, quality, portfolio limit and its use in /metrics, labelled by phone number id', async () => {
    const rig = await startApi(backend);
    await seedSenders(rig.store, T0);
    const r = await rig.call('GET', '/metrics', { token: null });
    expect(r.status).toBe(200);
    const lines = r.text.split('\n');
    for (const expected of [
      `pacer_sender_state{phone_number_id="${FINE_ID}",state="ok"} 1`,
      `pacer_sender_state{phone_number_id="${STOPPED_ID}",state="stopped"} 1`,
      `pacer_sender_state{phone_number_id="${STOPPED_ID}",state="ok"} 0`,
      `pacer_sender_can_send{phone_number_id="${FINE_ID}"} 1`,
      `pacer_sender_can_send{phone_number_id="${STOPPED_ID}"} 0`,
      `pacer_sender_throughput_mps{phone_number_id="${FINE_ID}"} 80`,
      `pacer_sender_throughput_mps{phone_number_id="${STOPPED_ID}"} 80`,
      `pacer_sender_quality_rating{phone_number_id="${FINE_ID}",rating="GREEN"} 1`,
      `pacer_sender_quality_rating{phone_number_id="${FINE_ID}",rating="RED"} 0`,
      `pacer_sender_quality_rating{phone_number_id="${STOPPED_ID}",rating="RED"} 1`,
      `pacer_sender_quality_rating{phone_number_id="${STOPPED_ID}",rating="GREEN"} 0`,
      `pacer_sender_messaging_limit_per_day{phone_number_id="${FINE_ID}"} 1000`,
      `pacer_sender_messaging_limit_per_day{phone_number_id="${STOPPED_ID}"} 1000`,
      `pacer_sender_messaging_limit_used{phone_number_id="${FINE_ID}"} 3`,
      `pacer_sender_messaging_limit_used{phone_number_id="${STOPPED_ID}"} 3`,
      '# TYPE pacer_sender_quality_rating gauge',
      '# TYPE pacer_sender_messaging_limit_used gauge',
    ])
      expect(lines).toContain(expected);
    // One rating is 1 per number; no recipient's number appears anywhere.
    expect(lines.filter((l) => l.startsWith(`pacer_sender_quality_rating{phone_number_id="${FINE_ID}"`) && l.endsWith(' 1'))).toHaveLength(
      1,
    );
    expect(r.text).not.toMatch(/1555000000\d/);
  });

  it('gives an unlimited tier +Inf and leaves out a tier not known yet', async () => {
    const rig = await startApi(backend);
    await seedSenders(rig.store, T0);
    const fine = await rig.store.getSender(FINE_ID);
    const stopped = await rig.store.getSender(STOPPED_ID);
    if (fine === null || stopped === null) throw new Error('seeded senders are missing');
    await rig.store.upsertSenders(
      [
        { ...fine, messagingLimitTier: 'TIER_UNLIMITED', qualityRating: null },
        { ...stopped, messagingLimitTier: null },
      ],
      T0,
    );
    const text = (await rig.call('GET', '/metrics', { token: null })).text;
    expect(text).toContain(`pacer_sender_messaging_limit_per_day{phone_number_id="${FINE_ID}"} +Inf`);
    expect(text).not.toContain(`pacer_sender_messaging_limit_per_day{phone_number_id="${STOPPED_ID}"}`);
    expect(text).toContain(`pacer_sender_quality_rating{phone_number_id="${FINE_ID}",rating="UNKNOWN"} 1`);
    expect(body(await rig.call('GET', `/api/v1/senders/${FINE_ID}`))).toMatchObject({
      messagingLimit: { tier: 'TIER_UNLIMITED', perDay: null, unlimited: true },
    });
  });
});
