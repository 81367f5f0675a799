import { z } from 'zod';
import { STANDARD_MPS, stateFromMetaStatus, throughputOfLevel } from '../core/sender-health.js';
import type { Millis } from '../core/time.js';
import type { PhoneNumberApi } from '../ports/cloud-api.js';
import type { OutboundEventStore, Sender, SenderHistoryStore, SenderInput, SenderProfile, SenderStore, Store } from '../ports/store.js';
import { senderHealthEvent } from './lifecycle-events.js';
import { withEvents } from './record-events.js';
import { NEW_SENDER_DEFAULTS } from './create-campaign.js';
import { describeFailure } from './sync-templates.js';

/** A runaway cursor ends the listing instead of looping. */
const MAX_PAGES = 1000;

/** One WhatsApp Business Account as configured, with a client holding its own access token. */
export interface SenderAccount {
  name: string;
  /** Null: the account is not known; only `phoneNumberIds` are read, one by one. */
  businessAccountId: string | null;
  /** The business portfolio its numbers share one messaging limit in. */
  portfolio: string;
  /** Only these numbers are sent from; null: every number the account lists. */
  phoneNumberIds: readonly string[] | null;
  api: PhoneNumberApi;
}

export interface AccountSyncReport {
  account: string;
  ok: boolean;
  /** Pages of `phone_numbers` read (0 when the numbers were read one by one). */
  pages: number;
  /** The numbers stored, by phone-number id. */
  numbers: string[];
  /** Listed by Meta but not in the account's `phoneNumberIds`: not stored, never sent from. */
  notConfigured: string[];
  /** Why the account (or a number of it) could not be read. */
  problems: string[];
}

export interface SenderSyncReport {
  accounts: AccountSyncReport[];
  added: number;
  updated: number;
  unchanged: number;
}

export interface SyncSendersDeps {
  store: SenderStore & SenderHistoryStore & OutboundEventStore & Partial<Pick<Store, 'transaction'>>;
  now: () => Millis;
}

// Meta's phone-number object, as far as a sync reads it; other fields are left alone.
const metaNumber = z.object({
  id: z.union([z.string().min(1), z.number().transform(String)]),
  display_phone_number: z.string().min(1),
  verified_name: z.string().optional(),
  quality_rating: z.string().optional(),
  status: z.string().optional(),
  name_status: z.string().optional(),
  throughput: z.object({ level: z.string() }).partial().optional(),
  whatsapp_business_manager_messaging_limit: z.string().optional(),
  messaging_limit_tier: z.string().optional(),
});
type MetaNumber = z.infer<typeof metaNumber>;

/**
 * Reads every number of every account from Meta and stores each with its health: display number,
 * name, Meta's status (which stops or frees it), quality, throughput and the portfolio's messaging
 * limit. One account failing leaves the others' results in place; a number Meta does not answer
 * for keeps what was stored.
 */
export async function syncSenders(deps: SyncSendersDeps, accounts: readonly SenderAccount[]): Promise<SenderSyncReport> {
  const report: SenderSyncReport = { accounts: [], added: 0, updated: 0, unchanged: 0 };
  for (const account of accounts) {
    const read = await readAccount(account);
    const stored: string[] = [];
    for (const raw of read.numbers) {
      const parsed = metaNumber.safeParse(raw);
      if (!parsed.success) {
        read.problems.push(
          `a number Pacer cannot read: ${parsed.error.issues.map((i) => `${i.path.join('.') || 'number'} ${i.message}`).join('; ')}`,
        );
        continue;
      }
      const outcome = await storeNumber(deps, account, parsed.data);
      report[outcome]++;
      stored.push(parsed.data.id);
    }
    report.accounts.push({
      account: account.name,
      ok: read.problems.length === 0,
      pages: read.pages,
      numbers: stored,
      notConfigured: read.notConfigured,
      problems: read.problems,
    });
  }
  return report;
}

async function readAccount(
  account: SenderAccount,
): Promise<{ pages: number; numbers: unknown[]; notConfigured: string[]; problems: string[] }> {
  const problems: string[] = [];
  const wanted = account.phoneNumberIds === null ? null : new Set(account.phoneNumberIds);
  if (account.businessAccountId === null) {
    const numbers: unknown[] = [];
    for (const id of account.phoneNumberIds ?? []) {
      const answer = await account.api.getPhoneNumber(id);
      if (answer.kind === 'ok') numbers.push(answer.number);
      else problems.push(`reading number ${id}: ${describeFailure(answer)}`);
    }
    return { pages: 0, numbers, notConfigured: [], problems };
  }
  const listed: unknown[] = [];
  let after: string | undefined;
  let pages = 0;
  for (;;) {
    const answer = await account.api.listPhoneNumbers(account.businessAccountId, after);
    if (answer.kind !== 'ok') {
      problems.push(`listing the numbers of account ${account.businessAccountId} (page ${pages + 1}): ${describeFailure(answer)}`);
      break;
    }
    pages++;
    listed.push(...answer.page.data);
    if (answer.page.after === null) break;
    if (answer.page.after === after) {
      problems.push(`listing the numbers of account ${account.businessAccountId}: the after cursor does not move on`);
      break;
    }
    if (pages >= MAX_PAGES) {
      problems.push(`listing the numbers of account ${account.businessAccountId}: more than ${MAX_PAGES} pages`);
      break;
    }
    after = answer.page.after;
  }
  const idOf = (raw: unknown) => String((raw as { id?: unknown } | null)?.id ?? '');
  const numbers = wanted === null ? listed : listed.filter((n) => wanted.has(idOf(n)));
  const notConfigured = wanted === null ? [] : listed.map(idOf).filter((id) => !wanted.has(id));
  for (const id of wanted ?? [])
    if (!listed.some((n) => idOf(n) === id) && problems.length === 0)
      problems.push(`number ${id} is configured but account ${account.businessAccountId} does not list it`);
  return { pages, numbers, notConfigured, problems };
}

async function storeNumber(deps: SyncSendersDeps, account: SenderAccount, n: MetaNumber): Promise<'added' | 'updated' | 'unchanged'> {
  const now = deps.now();
  const current = await deps.store.getSender(n.id);
  const base: SenderInput = current ?? { phoneNumberId: n.id, displayNumber: n.display_phone_number, ...NEW_SENDER_DEFAULTS };
  const health = stateFromMetaStatus(n.status ?? null, base);
  const next: SenderInput = {
    ...base,
    displayNumber: n.display_phone_number,
    qualityRating: n.quality_rating ?? base.qualityRating,
    throughputMps: paceOf(current, n.throughput?.level ?? null, base.throughputMps),
    messagingLimitTier: n.whatsapp_business_manager_messaging_limit ?? n.messaging_limit_tier ?? base.messagingLimitTier,
    ...(health.state === 'ok' ? { state: 'ok', stateReason: null, stateUntil: null } : {}),
    ...(health.state === 'stopped' ? { state: 'stopped', stateReason: health.reason, stateUntil: null } : {}),
  };
  const profile: SenderProfile = {
    businessAccountId: account.businessAccountId ?? current?.businessAccountId ?? null,
    portfolioId: account.portfolio,
    verifiedName: n.verified_name ?? current?.verifiedName ?? null,
    metaStatus: n.status ?? current?.metaStatus ?? null,
    nameStatus: n.name_status ?? current?.nameStatus ?? null,
    throughputLevel: n.throughput?.level ?? current?.throughputLevel ?? null,
    syncedAt: now,
  };
  // The number, its history and what subscribers hear of it change together.
  const changed = await withEvents(deps.store, now, async (tx, emit) => {
    const [id] = await tx.upsertSenders([next], now);
    await tx.setSenderProfile(n.id, profile);
    const told = senderHealthEvent(next, current, { ...next, metaStatus: profile.metaStatus }, 'sender sync', now);
    if (told !== null) emit(told);
    if (current === null) {
      if (id !== undefined) await tx.recordSenderChange({ senderId: id, at: now, ...facts(next), source: 'sender sync' });
      return true;
    }
    const differs = JSON.stringify(facts(current)) !== JSON.stringify(facts(next));
    if (differs) await tx.recordSenderChange({ senderId: current.id, at: now, ...facts(next), source: 'sender sync' });
    return differs;
  });
  if (current === null) return 'added';
  const profileChanged = (Object.keys(profile) as (keyof SenderProfile)[]).some((k) => k !== 'syncedAt' && profile[k] !== current[k]);
  return changed || profileChanged || current.displayNumber !== next.displayNumber || current.throughputMps !== next.throughputMps
    ? 'updated'
    : 'unchanged';
}

/**
 * The pace Pacer keeps for the number: Meta's level (80 or 1,000/s) for a new number, and whenever
 * Meta changes the level; otherwise the pace stored stands, so a number paced below Meta's level on
 * purpose (headroom under a provider's own limit) keeps it. A number never read before and still at
 * Pacer's default takes the level Meta reports.
 */
function paceOf(current: Sender | null, level: string | null, stored: number): number {
  const byLevel = throughputOfLevel(level);
  if (byLevel === null) return stored;
  if (current === null) return byLevel;
  if (current.throughputLevel !== null) return current.throughputLevel === level ? stored : byLevel;
  return stored === STANDARD_MPS ? byLevel : stored;
}

const facts = (s: SenderInput) => ({
  qualityRating: s.qualityRating,
  messagingLimitTier: s.messagingLimitTier,
  state: s.state,
  stateReason: s.stateReason,
});
