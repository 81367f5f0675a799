import { describe, expect, it } from 'vitest';
import { DAY, HOUR } from '../core/time.js';
import type { Template } from '../ports/store.js';
import { lateDeliveryWarning } from './late-delivery-warning.js';

const template = (category: Template['category'], sendTtlSeconds: number | null): Template => ({
  id: 1,
  name: 'flash_sale',
  language: 'en_GB',
  category,
  status: 'approved',
  quality: 'GREEN',
  pausedUntil: null,
  updatedAt: 0,
  metaId: '880000000000001',
  subCategory: null,
  parameterFormat: 'positional',
  components: [],
  sendTtlSeconds,
  syncedAt: 0,
});

describe('the warning when Meta may deliver later than --max-delay allows', () => {
  it('on the Marketing Messages API: names the template TTL and the command that shortens it', () => {
    expect(lateDeliveryWarning(template('marketing', null), 6 * HOUR, 'marketing_messages')).toBe(
      "--max-delay 6 h keeps Pacer from sending late, but on the Marketing Messages API Meta retries a message it cannot deliver for flash_sale (en_GB)'s time-to-live, 30 days (Meta's default): a message to a phone that is off may arrive that long after it was sent. Shorten it with: pacer template ttl flash_sale --language en_GB --ttl 12h (12 h (43,200 s) is the shortest Meta allows for marketing)",
    );
    expect(lateDeliveryWarning(template('marketing', 7 * 86_400), 2 * DAY, 'marketing_messages')).toContain(
      "flash_sale (en_GB)'s time-to-live, 7 days (604,800 s): a message to a phone that is off may arrive that long after it was sent. Shorten it with: pacer template ttl flash_sale --language en_GB --ttl 2d",
    );
    // Already short enough: nothing to say.
    expect(lateDeliveryWarning(template('marketing', 43_200), DAY, 'marketing_messages')).toBeNull();
  });

  it('on /messages: the template TTL does not hold there, so it says how to reach the path where it does', () => {
    const w = lateDeliveryWarning(template('marketing', 43_200), DAY, 'cloud');
    expect(w).toContain(
      'on /messages Meta retries a marketing template it cannot deliver for 30 days, whatever the template says (PACER_MARKETING_PATH=cloud)',
    );
    expect(w).toContain(
      "set PACER_MARKETING_PATH=marketing_messages and shorten flash_sale (en_GB)'s with: pacer template ttl flash_sale --language en_GB --ttl 1d",
    );
  });

  it('after a cap only: the first attempts go through /messages, and the MM API TTL matters after a cap', () => {
    expect(lateDeliveryWarning(template('marketing', null), DAY, 'marketing_messages_after_cap')).toContain(
      "first attempts go through /messages (PACER_MARKETING_PATH=marketing_messages_after_cap), where Meta retries a marketing template it cannot deliver for 30 days whatever the template says; after a cap, on the Marketing Messages API Meta retries a message it cannot deliver for flash_sale (en_GB)'s time-to-live, 30 days (Meta's default). Shorten that with: pacer template ttl flash_sale --language en_GB --ttl 1d",
    );
    expect(lateDeliveryWarning(template('marketing', 43_200), DAY, 'marketing_messages_after_cap')).toMatch(
      /whatever the template says\.$/,
    );
  });

  it('says nothing without a maximum delay, or for other categories', () => {
    expect(lateDeliveryWarning(template('marketing', null), undefined, 'marketing_messages')).toBeNull();
    expect(lateDeliveryWarning(template('utility', null), HOUR, 'marketing_messages')).toBeNull();
  });
});
