import { describe, expect, it } from 'vitest';
import { signBody } from '../src/adapters/http/webhook-signature.js';
import { parseWebhook } from '../src/adapters/webhook/parse-webhook.js';
import { campaignAction } from '../src/app/campaign-actions.js';
import { processInbox } from '../src/app/process-inbox.js';
import { NO_DISPATCHER_HERE } from '../src/app/work-signal.js';
import { DEFAULT_POLICY } from '../src/core/policy.js';
import { HOUR, MINUTE } from '../src/core/time.js';
import type { Store } from '../src/ports/store.js';
import { BACKENDS } from './store-backends.js';
import { seedCampaign } from './store-seed.js';
import { SECRET, startServer, T0, WEBHOOK } from './webhook-endpoint-server.js';

// Template, quality, number and account signals apply by their own event time (`entry[].time`), and
// once: Meta delivers them at least once and in no set order.
const WABA = '102290129340398';

/** A WABA-level webhook as Meta sends it: one change of `field`, at `at` (whole seconds). */
function change(field: string, at: number, value: Record<string, unknown>): string {
  return JSON.stringify({
    object: 'whatsapp_business_account',
    entry: [{ id: WABA, time: Math.floor(at / 1000), changes: [{ value, field }] }],
  });
}

/** The seeded template `promo` (en), as Meta names it. */
const promo = { message_template_id: 806312974732579, message_template_name: 'promo', message_template_language: 'en' };
const templateStatus = (event: string, at: number, otherInfo?: Record<string, string>): string =>
  change('message_template_status_update', at, {
    event,
    ...promo,
    reason: 'NONE',
    message_template_category: 'MARKETING',
    ...(otherInfo ? { other_info: otherInfo } : {}),
  });
const templateQuality = (from: string, to: string, at: number): string =>
  change('message_template_quality_update', at, { previous_quality_score: from, new_quality_score: to, ...promo });
/** The seeded sender's number (`+1 555-0100`), named by its display number as Meta does. */
const numberQuality = (event: string, at: number): string =>
  change('phone_number_quality_update', at, { display_phone_number: '15550100', event, current_limit: 'TIER_1K' });

/** Signed POSTs into the real endpoint, then one processor pass over what they stored. */
async function deliver(store: Store, ...bodies: string[]): Promise<void> {
  const edge = await startServer(store);
  for (const body of bodies) {
    const res = await edge.app.inject({
      method: 'POST',
      url: WEBHOOK,
      payload: body,
      headers: { 'content-type': 'application/json', 'x-hub-signature-256': signBody(body, SECRET) },
    });
    expect(res.statusCode).toBe(200);
  }
  await edge.app.close();
  const result = await processInbox({ store, policy: DEFAULT_POLICY, clock: { now: () => T0 }, random: () => 0.5, parse: parseWebhook });
  expect(result).toMatchObject({ rows: bodies.length, quarantined: 0 });
}

describe.each(BACKENDS)('account-level webhook signals in event-time order ($name)', (backend) => {
  it('an older PAUSED arriving after a newer UNPAUSED leaves the template approved and its campaign running', async () => {
    const store = await backend.open();
    const seed = await seedCampaign(store, T0 - 3 * HOUR, 0);
    await deliver(store, templateStatus('UNPAUSED', T0 - HOUR, { title: 'UNPAUSE', description: 'Unpaused' }));
    await deliver(store, templateStatus('PAUSED', T0 - 2 * HOUR, { title: 'FIRST_PAUSE', description: 'Paused' }));
    expect(await store.getTemplateById(seed.templateId)).toMatchObject({ status: 'approved', pausedUntil: null });
    expect(await store.getCampaign(seed.campaignId)).toMatchObject({ status: 'running' });
    // A PAUSED newer than the UNPAUSED still applies.
    await deliver(store, templateStatus('PAUSED', T0 - 30 * MINUTE, { title: 'FIRST_PAUSE', description: 'Paused' }));
    expect(await store.getTemplateById(seed.templateId)).toMatchObject({ status: 'paused', pausedUntil: T0 - 30 * MINUTE + 3 * HOUR });
    expect(await store.getCampaign(seed.campaignId)).toMatchObject({ status: 'paused' });
  });

  it('an older RED template quality arriving after a newer GREEN changes nothing', async () => {
    const store = await backend.open();
    const seed = await seedCampaign(store, T0 - 3 * HOUR, 0);
    await deliver(store, templateQuality('RED', 'GREEN', T0 - HOUR), templateQuality('YELLOW', 'RED', T0 - 2 * HOUR));
    expect(await store.getTemplateById(seed.templateId)).toMatchObject({ quality: 'GREEN' });
    expect(await store.getCampaign(seed.campaignId)).toMatchObject({ status: 'running' });
  });

  it('an older FLAGGED number quality arriving after a newer UNFLAGGED leaves the number green and campaigns running', async () => {
    const store = await backend.open();
    const seed = await seedCampaign(store, T0 - 3 * HOUR, 0);
    await deliver(store, numberQuality('UNFLAGGED', T0 - HOUR), numberQuality('FLAGGED', T0 - 2 * HOUR));
    expect(await store.getSenderById(seed.senderId)).toMatchObject({ qualityRating: 'GREEN' });
    expect(await store.getCampaign(seed.campaignId)).toMatchObject({ status: 'running' });
  });

  it('an older category change or messaging limit arriving after a newer one changes nothing', async () => {
    const store = await backend.open();
    const seed = await seedCampaign(store, T0 - 3 * HOUR, 0);
    const category = (from: string, to: string, at: number): string =>
      change('template_category_update', at, { ...promo, previous_category: from, new_category: to });
    const limit = (tier: string, at: number): string =>
      change('business_capability_update', at, { max_daily_conversations_per_business: tier });
    await deliver(store, category('MARKETING', 'UTILITY', T0 - HOUR), category('UTILITY', 'MARKETING', T0 - 2 * HOUR));
    await deliver(store, limit('TIER_10K', T0 - HOUR), limit('TIER_1K', T0 - 2 * HOUR));
    expect(await store.getTemplateById(seed.templateId)).toMatchObject({ category: 'utility' });
    expect(await store.getSenderById(seed.senderId)).toMatchObject({ messagingLimitTier: 'TIER_10K' });
  });

  it('a redelivered PAUSED after an operator resumed the campaign does not pause it again', async () => {
    const store = await backend.open();
    const seed = await seedCampaign(store, T0 - 3 * HOUR, 0);
    const paused = templateStatus('PAUSED', T0 - HOUR, { title: 'FIRST_PAUSE', description: 'Paused after negative feedback' });
    await deliver(store, paused);
    expect(await store.getCampaign(seed.campaignId)).toMatchObject({ status: 'paused' });
    await campaignAction(store, seed.campaignId, 'resume', T0, NO_DISPATCHER_HERE);
    await deliver(store, paused); // the same bytes again: Meta redelivers
    expect(await store.getCampaign(seed.campaignId)).toMatchObject({ status: 'running' });
    expect(await store.listQuarantinedInbox(0, 10)).toEqual([]);
  });

  it('a redelivered account restriction after an operator resumed does not pause again', async () => {
    const store = await backend.open();
    const seed = await seedCampaign(store, T0 - 3 * HOUR, 0);
    const restricted = change('account_update', T0 - HOUR, {
      event: 'ACCOUNT_RESTRICTION',
      restriction_info: [{ restriction_type: 'RESTRICTED_BIZ_INITIATED_MESSAGING', expiration: Math.floor((T0 + HOUR) / 1000) }],
    });
    await deliver(store, restricted);
    expect(await store.getCampaign(seed.campaignId)).toMatchObject({ status: 'paused' });
    await campaignAction(store, seed.campaignId, 'resume', T0, NO_DISPATCHER_HERE);
    await deliver(store, restricted);
    expect(await store.getCampaign(seed.campaignId)).toMatchObject({ status: 'running' });
  });
});
