import { describe, expect, it } from 'vitest';
import { META_STATUS_REASON } from '../core/sender-health.js';
import type { Sender } from '../ports/store.js';
import { sendingVerdict } from './sender-overview.js';

const NOW = Date.UTC(2026, 0, 5, 9);
const sender = (over: Partial<Sender>): Sender => ({
  id: 1,
  phoneNumberId: '1065',
  displayNumber: '+1 555-0100',
  qualityRating: 'GREEN',
  throughputMps: 80,
  messagingLimitTier: 'TIER_1K',
  state: 'ok',
  stateReason: null,
  stateUntil: null,
  businessAccountId: null,
  portfolioId: null,
  verifiedName: null,
  metaStatus: 'CONNECTED',
  nameStatus: null,
  throughputLevel: null,
  syncedAt: null,
  updatedAt: NOW,
  ...over,
});

describe('sendingVerdict', () => {
  it('sends when Pacer has it ok and Meta connected (or not read yet)', () => {
    expect(sendingVerdict(sender({}), NOW)).toEqual({ kind: 'sends' });
    expect(sendingVerdict(sender({ metaStatus: null }), NOW)).toEqual({ kind: 'sends' });
  });

  it('cannot send when stopped, with the stop reason, or an operator when none is given', () => {
    expect(sendingVerdict(sender({ state: 'stopped', stateReason: '190 Access token expired' }), NOW)).toEqual({
      kind: 'cannot_send',
      reasons: ['190 Access token expired'],
    });
    expect(sendingVerdict(sender({ state: 'stopped' }), NOW)).toEqual({ kind: 'cannot_send', reasons: ['stopped by an operator'] });
  });

  it('cannot send when Meta reports it not connected (FLAGGED, a quality warning, still sends), said once when the stop already says it', () => {
    expect(sendingVerdict(sender({ metaStatus: 'disconnected' }), NOW)).toEqual({
      kind: 'cannot_send',
      reasons: ['Meta reports the number as DISCONNECTED; it sends again once Meta reports it CONNECTED'],
    });
    expect(sendingVerdict(sender({ metaStatus: 'FLAGGED' }), NOW).kind).toBe('sends');
    const metaStop = `${META_STATUS_REASON} BANNED: it cannot send until Meta reports it CONNECTED`;
    expect(sendingVerdict(sender({ state: 'stopped', stateReason: metaStop, metaStatus: 'BANNED' }), NOW)).toEqual({
      kind: 'cannot_send',
      reasons: [metaStop],
    });
    expect(sendingVerdict(sender({ state: 'stopped', stateReason: '190 Access token expired', metaStatus: 'RESTRICTED' }), NOW)).toEqual({
      kind: 'cannot_send',
      reasons: ['190 Access token expired', 'Meta reports the number as RESTRICTED; it sends again once Meta reports it CONNECTED'],
    });
  });

  it('waits while throttled, and sends once the throttle has passed', () => {
    const throttled = sender({ state: 'throttled', stateReason: '80007 rate limit hit', stateUntil: NOW + 60_000 });
    expect(sendingVerdict(throttled, NOW)).toEqual({ kind: 'waits', until: NOW + 60_000, reason: '80007 rate limit hit' });
    expect(sendingVerdict(throttled, NOW + 60_000)).toEqual({ kind: 'sends' });
  });
});
