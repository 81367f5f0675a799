import { describe, expect, it } from 'vitest';
import type { PhoneQualityItem } from '../src/ports/webhook-items.js';
import { applyPhoneQuality } from '../src/app/apply-account-signals.js';
import { BACKENDS } from './store-backends.js';

const T0 = Date.UTC(2026, 0, 5, 9, 0, 0);

function item(display: string | null, event: string, phoneNumberId: string | null = null): PhoneQualityItem {
  return {
    kind: 'phone_quality',
    source: { wabaId: '100200300', phoneNumberId },
    path: 'entry[0].changes[0].value',
    at: T0,
    displayPhoneNumber: display,
    event,
    currentLimit: 'TIER_2K',
    oldLimit: null,
    maxDailyConversations: null,
  };
}

describe.each(BACKENDS)('phone quality updates reach the sender ($name)', (backend) => {
  it('matches the sender by the digits of its display number, as Meta names it', async () => {
    const store = await backend.open();
    await store.upsertSenders(
      [
        {
          phoneNumberId: '1065',
          displayNumber: '+1 555-078-3881',
          qualityRating: 'GREEN',
          throughputMps: 80,
          messagingLimitTier: null,
          state: 'ok',
          stateReason: null,
          stateUntil: null,
        },
        {
          phoneNumberId: '2077',
          displayNumber: '+44 7700 900123',
          qualityRating: 'GREEN',
          throughputMps: 80,
          messagingLimitTier: null,
          state: 'ok',
          stateReason: null,
          stateUntil: null,
        },
      ],
      T0,
    );
    expect(await applyPhoneQuality(store, item('15550783881', 'FLAGGED'), T0, () => undefined)).toMatchObject({ phoneNumberId: '1065' });
    expect(await store.getSender('1065')).toMatchObject({ qualityRating: 'FLAGGED', messagingLimitTier: 'TIER_2K' });
    expect(await store.getSender('2077')).toMatchObject({ qualityRating: 'GREEN' });
    expect(await applyPhoneQuality(store, item('15550783881', 'UNFLAGGED'), T0, () => undefined)).toBeNull();
    expect(await store.getSender('1065')).toMatchObject({ qualityRating: 'GREEN' });
    // A phone-number id, when present, wins; an unknown number or none changes nothing.
    expect(await applyPhoneQuality(store, item(null, 'DOWNGRADE', '2077'), T0, () => undefined)).toMatchObject({ phoneNumberId: '2077' });
    expect(await store.getSender('2077')).toMatchObject({ qualityRating: 'FLAGGED' });
    expect(await applyPhoneQuality(store, item('19990000000', 'FLAGGED'), T0, () => undefined)).toBeNull();
    expect(await applyPhoneQuality(store, item(null, 'FLAGGED'), T0, () => undefined)).toBeNull();
    expect(await store.getSender('1065')).toMatchObject({ qualityRating: 'GREEN' });
  });

  it('never matches a number of another account, even with the same display digits', async () => {
    const store = await backend.open();
    const base = {
      qualityRating: 'GREEN',
      throughputMps: 80,
      messagingLimitTier: null,
      state: 'ok' as const,
      stateReason: null,
      stateUntil: null,
    };
    await store.upsertSenders(
      [
        { ...base, phoneNumberId: '3001', displayNumber: '+1 555-000-1111' },
        { ...base, phoneNumberId: '3002', displayNumber: '+1 555-000-1111' },
      ],
      T0,
    );
    const profile = {
      portfolioId: null,
      verifiedName: null,
      metaStatus: 'CONNECTED',
      nameStatus: null,
      throughputLevel: 'STANDARD',
      syncedAt: T0,
    };
    await store.setSenderProfile('3001', { ...profile, businessAccountId: '999000111' });
    await store.setSenderProfile('3002', { ...profile, businessAccountId: '100200300' });
    // The webhook comes from account 100200300 (entry.id): only its number is meant.
    expect(await applyPhoneQuality(store, item('15550001111', 'FLAGGED'), T0, () => undefined)).toMatchObject({ phoneNumberId: '3002' });
    expect(await store.getSender('3001')).toMatchObject({ qualityRating: 'GREEN' });
    expect(await store.getSender('3002')).toMatchObject({ qualityRating: 'FLAGGED' });
  });
});
