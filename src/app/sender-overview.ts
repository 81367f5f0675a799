import { metaStatusSends } from '../core/sender-health.js';
import { MESSAGING_LIMIT_WINDOW_MS, messagingLimitOf, portfolioKeyOf } from '../core/messaging-limit.js';
import { META_STATUS_REASON } from '../core/sender-health.js';
import { poolNumbers, type SenderPool } from '../core/sender-pool.js';
import { DAY, type Millis } from '../core/time.js';
import type {
  Campaign,
  CampaignStatus,
  CampaignStore,
  ConversationStore,
  Sender,
  SenderChange,
  SenderHistoryStore,
  SenderStore,
} from '../ports/store.js';
import { readPool } from './sender-pool.js';

/** How far back a number's quality, limit and state changes are shown. */
export const SENDER_HISTORY_DAYS = 30;
/** At most this many changes per number (the latest ones), so one noisy number cannot flood a page. */
const HISTORY_LIMIT = 500;
/** Campaigns that still send, or will, from their number: the ones a stopped number holds up. */
const ACTIVE: readonly CampaignStatus[] = ['running', 'scheduled', 'paused'];

/** Whether a number sends now, and if not, every reason an operator must clear. */
export type SendingVerdict =
  { kind: 'sends' } | { kind: 'waits'; until: Millis | null; reason: string } | { kind: 'cannot_send'; reasons: string[] };

/** The portfolio's messaging limit as this number spends it (every number of the portfolio shares it). */
export interface SenderLimit {
  tier: string | null;
  /** New people per rolling 24 h; null when unlimited or not known. */
  perDay: number | null;
  unlimited: boolean;
  /** The portfolio's id, or `number:<id>` for a number whose portfolio is not known (its own limit). */
  portfolioKey: string;
  /** Phone-number ids of the known numbers sharing this limit, this one included. */
  portfolioNumbers: string[];
  /** People the portfolio's numbers started conversations with in the last 24 h. */
  usedLast24h: number;
}

export interface SenderOverview {
  sender: Sender;
  sending: SendingVerdict;
  limit: SenderLimit;
  /** Campaigns running, scheduled or paused on it: as their own number or one of their pool's. */
  campaigns: Pick<Campaign, 'id' | 'name' | 'status'>[];
  /** Changes over `SENDER_HISTORY_DAYS`, oldest first; null when not asked for. */
  history: SenderChange[] | null;
}

/** What a campaign needs to say of the number it sends from. */
export interface CampaignSender {
  id: number;
  phoneNumberId: string;
  displayNumber: string;
  verifiedName: string | null;
  state: Sender['state'];
  stateReason: string | null;
  stateUntil: Millis | null;
  metaStatus: string | null;
  sending: SendingVerdict;
}

export type SenderOverviewStore = SenderStore & SenderHistoryStore & ConversationStore & Pick<CampaignStore, 'listCampaigns'>;

/**
 * Pacer's state and Meta's status, read together (`metaStatusSends`: CONNECTED, and FLAGGED, a
 * quality warning, send); Pacer stops a number for refusals of its own. A throttled number sends again later.
 */
export function sendingVerdict(sender: Sender, now: Millis): SendingVerdict {
  const reasons: string[] = [];
  if (sender.state === 'stopped') reasons.push(sender.stateReason ?? 'stopped by an operator');
  const status = sender.metaStatus?.trim().toUpperCase() ?? null;
  // A stop Pacer set from Meta's status already says it; the status is not repeated.
  const saidByStop = sender.state === 'stopped' && (sender.stateReason ?? '').startsWith(`${META_STATUS_REASON} ${status ?? ''}:`);
  if (status !== null && !metaStatusSends(status) && !saidByStop)
    reasons.push(`Meta reports the number as ${status}; it sends again once Meta reports it CONNECTED`);
  if (reasons.length > 0) return { kind: 'cannot_send', reasons };
  if (sender.state === 'throttled' && (sender.stateUntil === null || sender.stateUntil > now))
    return { kind: 'waits', until: sender.stateUntil, reason: sender.stateReason ?? 'throttled' };
  return { kind: 'sends' };
}

/**
 * Every sender number with what an operator checks first: can it send, the portfolio limit and how
 * much of it the last 24 h used, the campaigns sending from it and, if asked, its recent changes.
 */
export async function sendersOverview(store: SenderOverviewStore, now: Millis, options: { history: boolean }): Promise<SenderOverview[]> {
  const [senders, campaigns] = await Promise.all([store.listSenders(), store.listCampaigns({})]);
  return overviewsOf(store, senders, senders, campaigns, now, options.history);
}

/** One number by Meta's phone-number id, with its history; null when Pacer does not know it. */
export async function senderOverview(store: SenderOverviewStore, phoneNumberId: string, now: Millis): Promise<SenderOverview | null> {
  const sender = await store.getSender(phoneNumberId);
  if (sender === null) return null;
  const [all, campaigns] = await Promise.all([store.listSenders(), store.listCampaigns({})]);
  const [one] = await overviewsOf(store, [sender], all, campaigns, now, true);
  return one ?? null;
}

/** Every number a campaign sends from, its own first, each with whether it can send. */
export interface CampaignNumbers {
  /** How a pool shares the audience out; null when the campaign sends from its own number alone. */
  pool: SenderPool['by'] | null;
  senders: CampaignSender[];
  /** Numbers the campaign names that Pacer does not know (a phone-number id, or `#<senderId>` for its own). */
  unknown: string[];
}

/** The numbers a campaign sends from (its own, then its pool's), and whether each can send. */
export async function campaignNumbers(
  store: Pick<SenderStore, 'getSenderById' | 'getSender'>,
  campaign: Campaign,
  now: Millis,
): Promise<CampaignNumbers> {
  const own = await store.getSenderById(campaign.senderId);
  const pool = poolOf(campaign);
  const others = pool === null ? [] : poolNumbers(pool).filter((id) => id !== own?.phoneNumberId);
  const found = await Promise.all(others.map(async (id) => [id, await store.getSender(id)] as const));
  const senders = [own, ...found.map(([, s]) => s)].filter((s): s is Sender => s !== null).map((s) => campaignSenderOf(s, now));
  const unknown = [...(own === null ? [`#${campaign.senderId}`] : []), ...found.filter(([, s]) => s === null).map(([id]) => id)];
  return { pool: pool?.by ?? null, senders, unknown };
}

function campaignSenderOf(s: Sender, now: Millis): CampaignSender {
  return {
    id: s.id,
    phoneNumberId: s.phoneNumberId,
    displayNumber: s.displayNumber,
    verifiedName: s.verifiedName,
    state: s.state,
    stateReason: s.stateReason,
    stateUntil: s.stateUntil,
    metaStatus: s.metaStatus,
    sending: sendingVerdict(s, now),
  };
}

/** A pool a page cannot read is shown as the campaign's own number alone, not as a failed page. */
function poolOf(campaign: Campaign): SenderPool | null {
  try {
    return readPool(campaign.senderPool, `campaign ${campaign.id}`);
  } catch {
    return null;
  }
}

function sendsFrom(campaign: Campaign, sender: Sender): boolean {
  if (campaign.senderId === sender.id) return true;
  const pool = poolOf(campaign);
  return pool !== null && poolNumbers(pool).includes(sender.phoneNumberId);
}

async function overviewsOf(
  store: SenderOverviewStore,
  senders: readonly Sender[],
  all: readonly Sender[],
  campaigns: readonly Campaign[],
  now: Millis,
  history: boolean,
): Promise<SenderOverview[]> {
  // One count per portfolio: the store counts the portfolio's people whichever of its numbers asks.
  const used = new Map<string, Promise<number>>();
  const usedBy = (s: Sender) => {
    const key = portfolioKeyOf(s);
    let found = used.get(key);
    if (found === undefined) {
      found = store.conversationWindow(s.id, now - MESSAGING_LIMIT_WINDOW_MS).then((w) => w.people);
      used.set(key, found);
    }
    return found;
  };
  return Promise.all(
    senders.map(async (sender): Promise<SenderOverview> => {
      const key = portfolioKeyOf(sender);
      const [usedLast24h, changes] = await Promise.all([
        usedBy(sender),
        history ? store.senderChanges(sender.id, now - SENDER_HISTORY_DAYS * DAY, HISTORY_LIMIT) : Promise.resolve(null),
      ]);
      const tier = sender.messagingLimitTier;
      return {
        sender,
        sending: sendingVerdict(sender, now),
        limit: {
          tier,
          perDay: messagingLimitOf(tier),
          unlimited: tier !== null && tier.trim().toUpperCase() === 'TIER_UNLIMITED',
          portfolioKey: key,
          portfolioNumbers: all.filter((s) => portfolioKeyOf(s) === key).map((s) => s.phoneNumberId),
          usedLast24h,
        },
        campaigns: campaigns
          .filter((c) => ACTIVE.includes(c.status) && sendsFrom(c, sender))
          .map((c) => ({ id: c.id, name: c.name, status: c.status })),
        history: changes,
      };
    }),
  );
}
