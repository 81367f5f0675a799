import { campaignOutcomes, frequencyCapInEffect } from '../../app/campaign-outcomes.js';
import { campaignPace } from '../../app/campaign-pace.js';
import { timingInEffect } from '../../app/message-timing.js';
import { campaignNumbers } from '../../app/sender-overview.js';
import { frequencyCapText } from '../../core/duration.js';
import { paceSentence } from '../../core/messaging-limit.js';
import type { Policy } from '../../core/policy.js';
import { untilPhrase } from '../../core/recipient-outcomes.js';
import { iso } from '../../core/time.js';
import type { Campaign, CampaignReportStore, ConversationStore, SenderStore } from '../../ports/store.js';
import { outcomesJson } from '../presenters/outcomes-json.js';
import { campaignNumbersJson, campaignNumbersLines } from '../presenters/sender-json.js';

/**
 * A campaign with the number it sends from (and whether that number can send), its counters, pace,
 * frequency cap and what happened to each group of recipients (the waiting ones by the reason of
 * their latest decision, until when), as text and as JSON.
 */
export async function campaignStatus(
  store: CampaignReportStore & SenderStore & ConversationStore,
  c: Campaign,
  now: number,
  policy: Policy,
): Promise<{ text: string; json: unknown }> {
  const counters = await store.campaignCounters(c.id);
  const pace = await campaignPace(store, c, counters.queued + counters.held, now);
  const outcomes = await campaignOutcomes(store, c, policy);
  const cap = frequencyCapInEffect(c, policy);
  const numbers = await campaignNumbers(store, c, now);
  const timing = timingInEffect(c, policy);
  const json = {
    ...c,
    scheduledAt: c.scheduledAt === null ? null : iso(c.scheduledAt),
    createdAt: iso(c.createdAt),
    updatedAt: iso(c.updatedAt),
    counters,
    pace,
    ...campaignNumbersJson(numbers, c.senderId),
    frequencyCapInEffect: cap,
    timingInEffect: timing,
    outcomes: outcomesJson(outcomes),
  };
  const lines = outcomes.map((g) => {
    const until = untilPhrase(g);
    return `    ${String(g.count).padStart(7)}  ${g.label}${g.codes.length > 0 ? ` (${g.codes.map((x) => `${x.code} × ${x.count}`).join(', ')})` : ''}${until === null ? '' : `, ${until}`}`;
  });
  const capLine = `  Frequency cap: ${frequencyCapText(cap.cap)}${cap.from === 'campaign' ? " (this campaign's own)" : ' (PACER_FREQUENCY_CAP)'}`;
  const text = [
    `#${c.id} ${c.name} — ${c.status}${c.pauseReason ? ` (${c.pauseReason})` : ''}`,
    ...campaignNumbersLines(numbers).map((l) => `  ${l}`),
    `  ${counters.total} recipient(s)${lines.length === 0 ? ', none yet' : ':'}`,
    ...lines,
    `  ${paceSentence(pace)}`,
    capLine,
    `  ${timing.sentence}`,
  ].join('\n');
  return { text, json };
}
