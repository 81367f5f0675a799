import { DAY, HOUR, type Millis } from '../src/core/time.js';
import type { JsonObject, Store } from '../src/ports/store.js';

export const FINE_ID = '106540352242922';
export const STOPPED_ID = '106540352242933';
export const STOP_REASON = '190 Access token expired: <renew> the token & restart';
export const VERIFIED_NAME = 'Acme <Shop> & "Co"';
export const PORTFOLIO = 'portfolio-9';

export interface SeededSenders {
  fine: number;
  stopped: number;
  spring: number;
  winter: number;
  done: number;
  /** Running on both numbers: a spread pool, its own number the fine one. */
  summer: number;
}

/**
 * Two numbers of one business portfolio (TIER_1K, shared): +1 555-0100 sends (read from Meta an hour
 * ago, its quality dipped and recovered this week), +1 555-0101 is stopped by a refused token and was
 * never read from Meta. The portfolio reached 3 people in the last 24 h (one of them from both
 * numbers) and a fourth a day and a half ago. Spring runs on the first, Winter (paused) on the second,
 * Summer on both (a spread pool); Autumn is over.
 */
export async function seedSenders(store: Store, t0: Millis): Promise<SeededSenders> {
  const base = { throughputMps: 80, messagingLimitTier: 'TIER_1K', stateUntil: null };
  const [fine = -1, stopped = -1] = await store.upsertSenders(
    [
      { ...base, phoneNumberId: FINE_ID, displayNumber: '+1 555-0100', qualityRating: 'GREEN', state: 'ok', stateReason: null },
      {
        ...base,
        phoneNumberId: STOPPED_ID,
        displayNumber: '+1 555-0101',
        qualityRating: 'RED',
        state: 'stopped',
        stateReason: STOP_REASON,
      },
    ],
    t0 - 10 * DAY,
  );
  await store.setSenderProfile(FINE_ID, {
    businessAccountId: 'waba-1',
    portfolioId: PORTFOLIO,
    verifiedName: VERIFIED_NAME,
    metaStatus: 'CONNECTED',
    nameStatus: 'APPROVED',
    throughputLevel: 'STANDARD',
    syncedAt: t0 - HOUR,
  });
  await store.setSenderProfile(STOPPED_ID, {
    businessAccountId: 'waba-1',
    portfolioId: PORTFOLIO,
    verifiedName: null,
    metaStatus: null,
    nameStatus: null,
    throughputLevel: null,
    syncedAt: null,
  });
  const change = (
    senderId: number,
    at: Millis,
    qualityRating: string,
    state: 'ok' | 'stopped',
    source: string,
    reason: string | null = null,
  ) => store.recordSenderChange({ senderId, at, qualityRating, messagingLimitTier: 'TIER_1K', state, stateReason: reason, source });
  await change(fine, t0 - 40 * DAY, 'YELLOW', 'ok', 'phone_quality DOWNGRADE'); // outside the 30 days shown
  await change(fine, t0 - 5 * DAY, 'FLAGGED', 'ok', 'phone_quality FLAGGED');
  await change(fine, t0 - 4 * DAY, 'GREEN', 'ok', 'phone_quality UNFLAGGED');
  await change(stopped, t0 - 2 * DAY, 'RED', 'stopped', 'send 190', STOP_REASON);

  const [templateId = -1] = await store.upsertTemplates(
    [{ name: 'promo', language: 'en', category: 'marketing', status: 'approved', quality: null, pausedUntil: null }],
    t0 - 10 * DAY,
  );
  const campaign = (name: string, senderId: number, status: 'running' | 'paused' | 'completed', senderPool: JsonObject | null = null) =>
    store.createCampaign(
      { name, templateId, senderId, segment: {}, scheduledAt: null, policyPreset: 'meta', status, senderPool },
      t0 - DAY,
    );
  const spring = await campaign('Spring <sale>', fine, 'running');
  const winter = await campaign('Winter', stopped, 'paused');
  const done = await campaign('Autumn', fine, 'completed');
  const summer = await campaign('Summer', fine, 'running', { by: 'spread', numbers: [FINE_ID, STOPPED_ID] });

  const { ids } = await store.upsertContacts(
    ['15550000001', '15550000002', '15550000003', '15550000004'].map((waId) => ({ waId })),
    t0 - 10 * DAY,
  );
  const [a = -1, b = -1, c = -1, d = -1] = ids;
  await store.recordConversation(fine, a, t0 - 3 * HOUR, DAY);
  await store.recordConversation(fine, b, t0 - 2 * HOUR, DAY);
  await store.recordConversation(stopped, b, t0 - 2 * HOUR, DAY);
  await store.recordConversation(stopped, c, t0 - HOUR, DAY);
  await store.recordConversation(fine, d, t0 - 36 * HOUR, DAY);
  return { fine, stopped, spring, winter, done, summer };
}
