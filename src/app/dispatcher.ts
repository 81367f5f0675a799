import { policyForCampaign, type Policy } from '../core/policy.js';
import type { NewOutboundEvent } from '../core/outbound-event.js';
import type { Millis } from '../core/time.js';
import type { CloudApi, SendResult } from '../ports/cloud-api.js';
import type { Clock } from '../ports/clock.js';
import { errorFields, silentLogger, type Logger } from '../ports/logger.js';
import type {
  Campaign,
  CampaignStore,
  ContactStateStore,
  ContactStore,
  ContactWithState,
  DecisionAuditInput,
  OutboxClaimStore,
  OutboxLeaseStore,
  PaceStore,
  Sender,
  SenderStore,
  Store,
  Template,
  TemplateStore,
} from '../ports/store.js';
import { NumberPacing, type PortfolioLedger } from './number-pacing.js';
import { ClaimedRowWrites } from './claimed-row-writes.js';
import { applyContactEventsBatch, type ContactEvents } from './apply-contact-events-batch.js';
import { logEffects } from './log-effects.js';
import type { EffectsApplied } from './send-effects.js';
import {
  finishOutboxRow,
  prepareOutboxRow,
  sendPrepared,
  type PreparedRow,
  type RowContext,
  type RowOutcome,
} from './process-outbox-row.js';

export interface DispatcherOptions {
  /** Lease owner name: unique per process. */
  owner: string;
  /** The number this process sends from: it claims only rows that go from it, never another number's. */
  phoneNumberId: string;
  /** Sends per second for the sender number (Meta's default 80; up to 1,000 after an upgrade). */
  mps: number;
  leaseMs: number;
  /** Rows claimed per tick at most. */
  batchSize: number;
  /**
   * Share the number's throughput with every other process through the store: the sender's
   * `throughputMps` (or `mps` when the number is not in the store) in tokens a second, of which one
   * pass may take at most `burstMs` worth at once.
   */
  pace?: { phoneNumberId: string; burstMs: number };
}

export type TickResult = { claimed: number } & Record<RowOutcome, number> & {
    /** When the shared throughput limited this pass: the time its next token is due. */
    pacedUntil: Millis | null;
  };

/** A pass that claimed nothing. */
export const EMPTY: TickResult = {
  claimed: 0,
  sent: 0,
  deferred: 0,
  held: 0,
  skipped: 0,
  failed: 0,
  retry: 0,
  unknown: 0,
  lost_lease: 0,
  pacedUntil: null,
};

const THROUGHPUT_READ_EVERY = 10_000;

/** The step a pass is in: what an operator looking at a slow or stuck worker needs to know. */
export type PassStep = 'sweeping leases' | 'taking pace' | 'claiming' | 'deciding' | 'sending' | 'recording answers';

export interface PassProgress {
  step: PassStep;
  since: Millis;
  /** Rows this pass holds (claimed, or in flight while sending). */
  rows: number;
}

/** The last grant from the number's shared bucket. */
export interface PaceSeen {
  at: Millis;
  wanted: number;
  granted: number;
  /** When the bucket can next fill a request as large. */
  nextAt: Millis;
}

/** The shared bucket of a sender number's throughput. */
export const senderPaceKey = (phoneNumberId: string): string => `sender:${phoneNumberId}`;

/** Claims and pacing, what each row's processing uses (`RowContext`), and transactions for the batches. */
type DispatcherStore = RowContext['store'] & Pick<CampaignStore, 'getCampaign'> & OutboxClaimStore & PaceStore & Pick<Store, 'transaction'>;

/**
 * Claims due outbox rows with a lease and processes each through `decide`, at no more than the
 * sender's throughput: each tick may use the send budget that accrued since the previous one, and,
 * with `pace`, only what the bucket all processes share grants it.
 */
export class Dispatcher {
  private lastTickAt: Millis | null = null;
  private lastSweepAt: Millis | null = null;
  /** The previous pass had budget and found nothing due: the loop may have slept until a lease ran out. */
  private foundNothing = false;
  private throughput: { mps: number; at: Millis } | null = null;
  private readonly pacing: NumberPacing;
  private step: PassProgress | null = null;
  private paceSeen: PaceSeen | null = null;

  constructor(
    private readonly deps: {
      store: DispatcherStore;
      api: CloudApi;
      policy: Policy;
      clock: Clock;
      random: () => number;
      /** Where a stopped sender or a paused campaign is reported (at warn). */
      logger?: Logger;
      /** Shared by every number's dispatcher in this process: the portfolio limit's places under way. */
      ledger?: PortfolioLedger;
    },
    private readonly options: DispatcherOptions,
  ) {
    this.pacing = new NumberPacing(deps.policy.pairRateGapMs, deps.ledger);
  }

  /** The pass under way (null between passes) and the last pace grant, for status reports. */
  progress(): { pass: PassProgress | null; pace: PaceSeen | null } {
    return { pass: this.step, pace: this.paceSeen };
  }

  async tick(): Promise<TickResult> {
    try {
      return await this.pass();
    } finally {
      this.step = null;
    }
  }

  private enter(step: PassStep, rows = 0): void {
    this.step = { step, since: this.deps.clock.now(), rows };
  }

  private async pass(): Promise<TickResult> {
    const { store, clock } = this.deps;
    const now = clock.now();
    const elapsed = this.lastTickAt === null ? 1000 : Math.max(0, now - this.lastTickAt);
    this.lastTickAt = now;
    const local = Math.min(this.options.batchSize, Math.max(1, Math.floor((this.options.mps * Math.min(elapsed, 1000)) / 1000)));
    if (this.lastSweepAt === null || now - this.lastSweepAt >= this.options.leaseMs || this.foundNothing) {
      // Expired leases (a crashed worker's, or a send whose answer never came): claimable again, or
      // unknown when the request may have reached Meta. Once per lease length is often enough for a
      // busy worker; an idle one is woken when a lease runs out and sweeps at once.
      this.lastSweepAt = now;
      this.enter('sweeping leases');
      await store.sweepExpiredLeases(now);
    }
    this.enter('taking pace');
    const pace = await this.takePace(local, now);
    const budget = pace === null ? local : pace.granted;
    if (pace !== null) this.paceSeen = { at: now, wanted: local, granted: pace.granted, nextAt: pace.nextAt };
    const audits: DecisionAuditInput[] = [];
    // Subscribers' events, recorded in the transaction whose changes they report.
    const events: NewOutboundEvent[] = [];
    const effects: EffectsApplied[] = [];
    const templates = new Map<string, Promise<Template | null>>();
    const senders = new Map<string, Promise<Sender | null>>();
    const policies = new Map<string, Promise<Policy>>();
    const campaigns = new Map<string, Promise<Campaign | null>>();
    // Templates, senders and campaigns are read once per pass, through whichever transaction is open.
    let reader: Pick<TemplateStore, 'getTemplate'> & Pick<SenderStore, 'getSender'> & Pick<CampaignStore, 'getCampaign'> = store;
    const ctx: RowContext = {
      store,
      api: this.deps.api,
      policy: this.deps.policy,
      owner: this.options.owner,
      now: () => clock.now(),
      random: this.deps.random,
      template: (name, language) => memo(templates, `${name}\u0000${language}`, () => reader.getTemplate(name, language)),
      sender: (id) => memo(senders, id, () => reader.getSender(id)),
      policyFor: (campaignId) =>
        campaignId === null
          ? Promise.resolve(this.deps.policy)
          : memo(policies, String(campaignId), async () => policyForCampaign(this.deps.policy, await reader.getCampaign(campaignId))),
      campaignFor: (campaignId) =>
        campaignId === null ? Promise.resolve(null) : memo(campaigns, String(campaignId), () => reader.getCampaign(campaignId)),
      audit: (entry) => audits.push(entry),
      pacing: this.pacing,
      onEffects: (e) => effects.push(e),
      emit: (e) => events.push(e),
    };
    // Claim, decide and record the intents in one transaction: the rows' pages are written once, and
    // no transaction ever spans a network call. Then send; then record the answers in a second one.
    this.enter('claiming');
    const claimed =
      budget === 0
        ? null
        : await store.transaction(async (tx) => {
            reader = tx;
            events.length = 0;
            const rows = await tx.claimDue({
              owner: this.options.owner,
              now,
              leaseMs: this.options.leaseMs,
              limit: budget,
              phoneNumberId: this.options.phoneNumberId,
            });
            if (rows.length === 0) return { rows, prepared: [] };
            this.enter('deciding', rows.length);
            this.pacing.newTick(now);
            // Every claimed row's contact and state in one read: deciding writes neither, so each row sees
            // exactly what reading it on its own would have returned.
            const known = await tx.getContactsWithState(rows.map((r) => r.contactId));
            // The rows' own transitions (intent, defer, hold, skip) go as one statement per kind.
            const writes = new ClaimedRowWrites(tx, this.options.owner, rows);
            const inTx = { ...ctx, store: writes.over(withKnownContacts(tx, known)) };
            const prepared: PreparedRow[] = [];
            for (const row of rows) prepared.push(await prepareOutboxRow(row, inTx));
            await writes.flush();
            if (audits.length > 0) await tx.appendDecisions(audits);
            if (events.length > 0) await tx.recordOutboundEvents(events.splice(0), now);
            return { rows, prepared };
          });
    reader = store;
    const rows = claimed?.rows ?? [];
    const prepared = claimed?.prepared ?? [];
    this.foundNothing = budget > 0 && rows.length === 0;
    // Held back only if rows may still be waiting: a pass that found fewer than it could take was not.
    const pacedUntil = pace !== null && pace.granted < local && rows.length === budget ? pace.nextAt : null;
    if (rows.length === 0) {
      await this.returnPace(pace, budget);
      return { ...EMPTY, pacedUntil };
    }
    const sends = prepared.filter((p): p is Extract<PreparedRow, { kind: 'send' }> => p.kind === 'send');
    // Rows deferred, held or skipped used none of the number's throughput. It goes back while the
    // requests go, not before them (it is a write, a commit's wait on PostgreSQL, and nothing a send
    // needs); failing to give it back costs only this pass's spare budget, so the rows, their intent
    // already recorded, are still sent and their answers recorded instead of being left mid-send.
    const returned = this.returnPace(pace, budget - sends.length).catch((error: unknown) =>
      (this.deps.logger ?? silentLogger).warn('returning unused send budget failed', errorFields(error)),
    );
    this.enter('sending', sends.length);
    const [answers] = await Promise.all([Promise.all(sends.map((p) => sendPrepared(p, this.deps.api))), returned]);
    this.enter('recording answers', sends.length);
    let sent: RowOutcome[];
    try {
      sent = await store.transaction(async (tx) => {
        reader = tx;
        const inTx = { ...ctx, store: await withAnswersRecorded(tx, this.options.owner, sends, answers, clock.now()) };
        const out: RowOutcome[] = [];
        events.length = 0;
        // Accepted marketing sends change their contacts' states: one load and one save for a run of
        // them, not two statements each. A run ends before any other answer, whose effects may read a
        // state, so every state changes in the order of the answers, as one at a time would.
        const run: ContactEvents[] = [];
        const applyRun = () => applyContactEventsBatch(tx, run.splice(0), inTx.policy, clock.now(), inTx.emit);
        for (const [i, p] of sends.entries()) {
          const answer = answers[i] as SendResult;
          if (answer.kind !== 'accepted') await applyRun();
          out.push(await finishOutboxRow(p, answer, inTx, (contactId, told) => run.push([contactId, told])));
        }
        await applyRun();
        if (events.length > 0) await tx.recordOutboundEvents(events.splice(0), clock.now());
        return out;
      });
    } finally {
      reader = store;
      // Recorded (or not, and then the row's lease runs out): the store counts these people now.
      for (const p of sends) if (p.conversationOf !== null) this.pacing.settled(p.conversationOf.key, p.row.contactId);
    }
    logEffects(this.deps.logger ?? silentLogger, effects);
    const result: TickResult = { ...EMPTY, claimed: rows.length, pacedUntil };
    for (const p of prepared) if (p.kind === 'settled') result[p.outcome]++;
    for (const o of sent) result[o]++;
    return result;
  }

  private async takePace(want: number, now: Millis): Promise<{ key: string; burst: number; granted: number; nextAt: Millis } | null> {
    const pace = this.options.pace;
    if (pace === undefined) return null;
    const perSecond = await this.senderThroughput(pace.phoneNumberId, now);
    const burst = Math.max(1, Math.ceil((perSecond * pace.burstMs) / 1000));
    const key = senderPaceKey(pace.phoneNumberId);
    return { key, burst, ...(await this.deps.store.takePace({ key, want, perSecond, burst, now })) };
  }

  /** The number's throughput as stored (Meta raises it on upgrade); read again every few seconds. */
  private async senderThroughput(phoneNumberId: string, now: Millis): Promise<number> {
    if (this.throughput === null || now - this.throughput.at >= THROUGHPUT_READ_EVERY) {
      const mps = (await this.deps.store.getSender(phoneNumberId))?.throughputMps ?? this.options.mps;
      this.throughput = { mps, at: now };
    }
    return this.throughput.mps;
  }

  private async returnPace(pace: { key: string; burst: number } | null, unused: number): Promise<void> {
    if (pace !== null && unused > 0) await this.deps.store.returnPace(pace.key, unused, pace.burst);
  }
}

/**
 * Records every accepted answer of the pass in one set-based statement first; the store then tells
 * each row's `recordAccepted` what its own statement would have: nothing else the answers do touches
 * these rows' status or lease, and a row takes its acceptance once.
 */
async function withAnswersRecorded<S extends Pick<OutboxLeaseStore, 'recordAccepted' | 'recordAcceptedMany'>>(
  store: S,
  owner: string,
  sends: readonly Extract<PreparedRow, { kind: 'send' }>[],
  answers: readonly SendResult[],
  now: Millis,
): Promise<S> {
  const moves = sends.flatMap((p, i) => {
    const a = answers[i];
    return a?.kind === 'accepted' ? [{ id: p.row.id, wamid: a.wamid, now }] : [];
  });
  const asked = new Map(moves.map((m) => [m.id, m.wamid]));
  const moved = new Set(await store.recordAcceptedMany(owner, moves));
  return {
    ...store,
    recordAccepted: (id, rowOwner, wamid, at) => {
      if (rowOwner !== owner || asked.get(id) !== wamid) return store.recordAccepted(id, rowOwner, wamid, at);
      asked.delete(id);
      return Promise.resolve(moved.delete(id));
    },
  };
}

/** The store, answering contact and contact-state reads for these contacts from memory. */
function withKnownContacts<S extends Pick<ContactStore, 'getContact'> & Pick<ContactStateStore, 'loadContactState'>>(
  store: S,
  known: readonly ContactWithState[],
): S {
  const byId = new Map(known.map((k) => [k.contact.id, k]));
  return {
    ...store,
    getContact: (id) => {
      const k = byId.get(id);
      return k ? Promise.resolve(k.contact) : store.getContact(id);
    },
    loadContactState: (id) => {
      const k = byId.get(id);
      return k ? Promise.resolve(k.state) : store.loadContactState(id);
    },
  };
}

function memo<T>(cache: Map<string, Promise<T>>, key: string, load: () => Promise<T>): Promise<T> {
  let hit = cache.get(key);
  if (hit === undefined) {
    hit = load();
    cache.set(key, hit);
  }
  return hit;
}
