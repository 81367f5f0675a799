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
    expect(await applyPhoneQuality(store, item('15550783881', 'FLAGGED'), T0)).toBe(true);
    expect(await store.getSender('1065')).toMatchObject({ qualityRating: 'FLAGGED', messagingLimitTier: 'TIER_2K' });
    expect(await store.getSender('2077')).toMatchObject({ qualityRating: 'GREEN' });
    expect(await applyPhoneQuality(store, item('15550783881', 'UNFLAGGED'), T0)).toBe(false);
    expect(await store.getSender('1065')).toMatchObject({ qualityRating: 'GREEN' });
    // A phone-number id, when present, wins; an unknown number or none changes nothing.
    expect(await applyPhoneQuality(store, item(null, 'DOWNGRADE', '2077'), T0)).toBe(true);
    expect(await store.getSender('2077')).toMatchObject({ qualityRating: 'FLAGGED' });
    expect(await applyPhoneQuality(store, item('19990000000', 'FLAGGED'), T0)).toBe(false);
    expect(await applyPhoneQuality(store, item(null, 'FLAGGED'), T0)).toBe(false);
    expect(await store.getSender('1065')).toMatchObject({ qualityRating: 'GREEN' });
  });
});
