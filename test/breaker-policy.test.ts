import { describe, expect, it } from 'vitest';
import { parseWebhook } from '../src/adapters/webhook/parse-webhook.js';
import { checkBreakers } from '../src/app/check-breakers.js';
import { emptyOutcomeMemo } from '../src/core/campaign-outcome-window.js';
import { processInbox } from '../src/app/process-inbox.js';
import { loadConfig } from '../src/config/config.js';
import { DEFAULT_POLICY } from '../src/core/policy.js';
import { HOUR } from '../src/core/time.js';
import type { Store } from '../src/ports/store.js';
import { BACKENDS } from './store-backends.js';
import { seedCampaign, seedClaimed } from './store-seed.js';

const T0 = Date.UTC(2026, 0, 5, 9, 0, 0);
const clock = { now: () => T0 };

/** Meta's template quality webhook: the seeded template `promo` (en) turns RED. */
async function templateTurnsRed(store: Store): Promise<void> {
  const body = {
    object: 'whatsapp_business_account',
    entry: [
      {
        id: '102290129340398',
        time: T0 / 1000,
        changes: [
          {
            field: 'message_template_quality_update',
            value: {
              previous_quality_score: 'YELLOW',
              new_quality_score: 'RED',
              message_template_id: 806312974732579,
              message_template_name: 'promo',
              message_template_language: 'en',
            },
          },
        ],
      },
    ],
  };
  await store.appendInbox({ raw: Buffer.from(JSON.stringify(body)), receivedAt: T0, signatureOk: true });
}

describe.each(BACKENDS)('campaign breaker settings ($name)', (backend) => {
  it('pauses on the configured cap share over the configured number of outcomes', async () => {
    const store = await backend.open();
    const seed = await seedCampaign(store, T0, 4);
    await store.insertOutbox(
      seed.rows(() => T0),
      T0,
    );
    const finals = [
      ['failed', 131049],
      ['failed', 131049],
      ['delivered', null],
      ['read', null],
    ] as const;
    for (const [i, row] of (await store.claimDue({ owner: 'w', now: T0, leaseMs: HOUR, limit: 4 })).entries()) {
      const [status, errorCode] = finals[i] ?? ['delivered', null];
      await store.appendMessageEvent(
        { wamid: `wamid.${i}`, status: 'sent', at: T0 + i, errorCode: null, inboxId: null, outboxId: row.id },
        T0,
      );
      await store.appendMessageEvent({ wamid: `wamid.${i}`, status, at: T0 + i, errorCode, inboxId: null, outboxId: row.id }, T0);
    }
    // Built in: at least 200 outcomes before the share counts.
    expect(await checkBreakers(store, DEFAULT_POLICY, T0)).toEqual([]);
    const tuned = loadConfig({ PACER_BREAKER_CAP_SHARE: '0.4', PACER_BREAKER_MIN_OUTCOMES: '4' }).policy;
    expect(await checkBreakers(store, tuned, T0)).toMatchObject([{ campaignId: seed.campaignId, reason: 'cap_share' }]);
    expect(await store.getCampaign(seed.campaignId)).toMatchObject({
      status: 'paused',
      pauseReason: expect.stringContaining('50% of the last 4 outcomes') as string,
    });
  });

  it('adds each check only what arrived since the last one, and trips when the new outcomes tip the share', async () => {
    const store = await backend.open();
    const seed = await seedClaimed(store, T0, 6);
    const rows = seed.claimed;
    const final = async (i: number, status: 'delivered' | 'failed', errorCode: number | null): Promise<void> => {
      await store.appendMessageEvent(
        { wamid: `wamid.${i}`, status, at: T0 + i, errorCode, inboxId: null, outboxId: rows[i]?.id ?? null },
        T0,
      );
    };
    const tuned = loadConfig({ PACER_BREAKER_CAP_SHARE: '0.4', PACER_BREAKER_MIN_OUTCOMES: '4' }).policy;
    const memo = emptyOutcomeMemo();
    await final(0, 'delivered', null);
    await final(1, 'delivered', null);
    await final(2, 'failed', 131049);
    expect(await checkBreakers(store, tuned, T0, undefined, memo)).toEqual([]); // 3 outcomes: too few to judge
    // A repeat of a status already read (Meta redelivers) is not a new outcome.
    await final(2, 'failed', 131049);
    await final(3, 'delivered', null);
    expect(await checkBreakers(store, tuned, T0, undefined, memo)).toEqual([]); // 1 cap in 4
    await final(4, 'failed', 131049);
    await final(5, 'failed', 131049);
    expect(await checkBreakers(store, tuned, T0, undefined, memo)).toMatchObject([{ campaignId: seed.campaignId, reason: 'cap_share' }]);
    expect((await store.getCampaign(seed.campaignId))?.pauseReason).toContain('50% of the last 6 outcomes');
  });

  it('pauses the campaigns of a template that turns RED unless told not to', async () => {
    for (const [policy, status] of [
      [loadConfig({ PACER_BREAKER_PAUSE_ON_RED_TEMPLATE: 'false' }).policy, 'running'],
      [DEFAULT_POLICY, 'paused'],
    ] as const) {
      const store = await backend.open();
      const seed = await seedCampaign(store, T0, 0);
      await templateTurnsRed(store);
      expect(await processInbox({ store, policy, clock, random: () => 0, parse: parseWebhook })).toMatchObject({ rows: 1, quarantined: 0 });
      expect((await store.getTemplateById(seed.templateId))?.quality).toBe('RED');
      expect((await store.getCampaign(seed.campaignId))?.status).toBe(status);
    }
  });
});
