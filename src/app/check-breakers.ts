import { evaluateBreaker, type BreakerConfig } from '../core/campaign-breaker.js';
import {
  emptyOutcomeMemo,
  forgetCampaignsExcept,
  outcomeWindow,
  rememberOutcomes,
  type OutcomeMemo,
} from '../core/campaign-outcome-window.js';
import { ERROR_CATALOGUE } from '../core/error-catalogue/index.js';
import type { EmitEvent } from '../core/outbound-event.js';
import type { Policy } from '../core/policy.js';
import type { Millis } from '../core/time.js';
import type { CampaignStore, EventLogStore, OutboundEventStore, SenderStore, Store, TemplateStore } from '../ports/store.js';
import { changeCampaignStatus, withEvents } from './record-events.js';

/** Codes whose arrival means the account itself is being limited (spam limits, locks, restrictions). */
const ACCOUNT_STOP_CODES = ERROR_CATALOGUE.filter((e) => e.class === 'account_problem' && e.effects.campaign === 'pause').map(
  (e) => e.code,
);

const NO_NEW_OUTCOMES = { outcomes: 0, caps: 0, accountStops: 0 };

export interface BreakerTrip {
  campaignId: number;
  reason: string;
  explanation: string;
}

/**
 * Looks at every running campaign's recent outcomes and its template and sender, and pauses the
 * ones the breaker says must stop, with the reason operators will see. Returns what tripped.
 */
export async function checkBreakers(
  store: EventLogStore & CampaignStore & TemplateStore & SenderStore & OutboundEventStore & Partial<Pick<Store, 'transaction'>>,
  policy: Policy,
  now: Millis,
  config: BreakerConfig = policy.campaignBreaker,
  seen: OutcomeMemo = emptyOutcomeMemo(),
): Promise<BreakerTrip[]> {
  const trips: BreakerTrip[] = [];
  const limit = Math.max(config.minOutcomes, 500);
  // Windows only change when message events arrive; then only the new ones are read.
  const lastEventId = await store.latestMessageEventId();
  const readWindows = lastEventId !== seen.lastEventId;
  if (readWindows) {
    rememberOutcomes(seen, await store.campaignOutcomesAfter(seen.lastEventId), lastEventId, limit);
  }
  const running = await store.listCampaigns({ status: 'running' });
  // A paused campaign's outcomes were judged; after a resume it is judged on what arrives after it.
  forgetCampaignsExcept(seen, new Set(running.map((c) => c.id)));
  for (const campaign of running) {
    const [template, sender] = await Promise.all([store.getTemplateById(campaign.templateId), store.getSenderById(campaign.senderId)]);
    const window = readWindows ? outcomeWindow(seen, campaign.id, limit, policy.capCodes, ACCOUNT_STOP_CODES) : NO_NEW_OUTCOMES;
    const verdict = evaluateBreaker(
      {
        window,
        template: { status: template?.status ?? 'unknown', quality: template?.quality ?? null },
        // A drop is handled when the quality webhook arrives; here only the sender's own state counts.
        sender: {
          quality: sender?.qualityRating ?? null,
          previousQuality: sender?.qualityRating ?? null,
          state: sender?.state === 'stopped' ? 'stopped' : 'ok',
          stateReason: sender?.stateReason ?? null,
        },
        accountRestricted: false,
      },
      config,
    );
    if (!verdict.trip) continue;
    // Name the template: an operator with several campaigns must see which one to fix.
    const aboutTemplate = (verdict.reason === 'template_paused' || verdict.reason === 'template_red') && template !== null;
    const explanation = aboutTemplate ? `Template ${template.name} (${template.language}): ${verdict.explanation}` : verdict.explanation;
    const paused = await withEvents(store, now, (tx, emit: EmitEvent) =>
      changeCampaignStatus(tx, campaign, 'paused', explanation, now, emit),
    );
    if (paused) {
      trips.push({ campaignId: campaign.id, reason: verdict.reason, explanation });
    }
  }
  return trips;
}
