import { campaignPace } from '../../app/campaign-pace.js';
import { paceSentence } from '../../core/messaging-limit.js';
import type { Policy } from '../../core/policy.js';
import { recipientOutcomes } from '../../core/recipient-outcomes.js';
import { iso } from '../../core/time.js';
import type { Campaign, CampaignReportStore, ConversationStore, SenderStore } from '../../ports/store.js';

/** A campaign with its counters, pace and what happened to each group of recipients, as text and as JSON. */
export async function campaignStatus(store: CampaignReportStore & SenderStore & ConversationStore, c: Campaign, now: number, policy: Pick<Policy, 'capCodes'>): Promise<{ text: string; json: unknown }> {
  const counters = await store.campaignCounters(c.id);
  const pace = await campaignPace(store, c, counters.queued + counters.held, now);
  const outcomes = recipientOutcomes(await store.outboxBreakdown(c.id), await store.skipReasons(c.id), policy.capCodes);
  const json = { ...c, scheduledAt: c.scheduledAt === null ? null : iso(c.scheduledAt), createdAt: iso(c.createdAt), updatedAt: iso(c.updatedAt), counters, pace, outcomes };
  const lines = outcomes.map((g) => `    ${String(g.count).padStart(7)}  ${g.label}${g.codes.length > 0 ? ` (${g.codes.map((x) => `${x.code} × ${x.count}`).join(', ')})` : ''}`);
  const text = [`#${c.id} ${c.name} — ${c.status}${c.pauseReason ? ` (${c.pauseReason})` : ''}`, `  ${counters.total} recipient(s)${lines.length === 0 ? ', none yet' : ':'}`, ...lines, `  ${paceSentence(pace)}`].join('\n');
  return { text, json };
}
