import type { GroundTruth, MessageTruth } from '../src/adapters/simulator/index.js';
import { eventually } from './await-state.js';
import { attemptsByRow } from './engine-rig.js';
import type { ScaleWorld } from './scale-rig.js';

/** An outbox row as the invariants need it, read behind the port (it has no listing). */
export interface RowView {
  id: number;
  status: string;
  outcome: string | null;
  wamid: string | null;
}

export async function campaignRows(world: ScaleWorld): Promise<RowView[]> {
  const rows = await world.query<{ id: string; status: string; outcome: string | null; wamid: string | null }>(
    'SELECT id, status, outcome, wamid FROM outbox WHERE campaign_id = $1 ORDER BY id',
    [world.campaignId],
  );
  return rows.map((r) => ({ id: Number(r.id), status: r.status, outcome: r.outcome, wamid: r.wamid }));
}

/** The outcome a message really reached, from its timestamps (on real time `sent` may fire after `delivered`). */
export function truthOutcome(m: MessageTruth): string | null {
  if (m.status === 'failed') return 'failed';
  if (m.readAt !== null) return 'read';
  if (m.deliveredAt !== null) return 'delivered';
  return m.status === 'sent' ? 'accepted' : null;
}

/** Rows whose recorded wamid or outcome differ from what really happened to their last message. */
export function differences(rows: readonly RowView[], truth: GroundTruth): string[] {
  const attempts = attemptsByRow(truth.messages);
  const out: string[] = [];
  for (const row of rows) {
    const last = attempts.get(row.id)?.at(-1);
    if (last === undefined) continue;
    if (row.wamid !== last.wamid || row.outcome !== truthOutcome(last))
      out.push(`row ${row.id}: ${row.status}/${row.outcome ?? '-'}, the simulator says ${truthOutcome(last) ?? 'nothing yet'}`);
  }
  return out;
}

export interface Verdict {
  /** Recipients who got this campaign more than once. */
  duplicates: string[];
  /** Rows neither final, nor waiting for a time, nor marked unknown: stuck mid-send. */
  stuck: string[];
  /** Rows marked unknown (the process died, or the answer never came, between intent and answer). */
  unknown: number;
  /** Of those, how many really reached Meta (a status webhook with our id settles them eventually). */
  unknownSent: number;
  /** Rows recorded differently from the simulator's ground truth. */
  mismatched: string[];
  /**
   * Messages whose last status, as the simulator recorded it, is in no webhook the edge
   * acknowledged: a fault of the simulator or the network, which no row of Pacer's can reflect.
   */
  unposted: string[];
  /** Webhook bodies the edge acknowledged that are not in the inbox, and stored ones not processed. */
  missingWebhooks: number;
  unprocessedWebhooks: number;
  summary: string;
}

/**
 * What must hold after any run, from the simulator's ground truth: nobody got the campaign twice,
 * every row is final, scheduled or unknown, every outcome recorded as it happened, and every
 * acknowledged webhook is in the inbox and applied.
 */
export async function judge(world: ScaleWorld): Promise<Verdict> {
  const rows = await campaignRows(world);
  const truth = world.sim.groundTruth();
  const byRecipient = new Map<string, number>();
  for (const m of truth.messages) byRecipient.set(m.to, (byRecipient.get(m.to) ?? 0) + 1);
  const attempts = attemptsByRow(truth.messages);
  const unknownRows = rows.filter((r) => r.status === 'unknown');
  const settled = (r: RowView) =>
    r.status === 'done' || r.status === 'held' || r.status === 'queued' || (r.status === 'sent' && r.outcome !== null);
  const stored = await world.query<{ raw: Buffer; processed_at: string | null; quarantine_reason: string | null }>(
    'SELECT raw, processed_at, quarantine_reason FROM webhook_inbox',
  );
  const inInbox = new Map<string, number>();
  for (const s of stored) inInbox.set(s.raw.toString('base64'), (inInbox.get(s.raw.toString('base64')) ?? 0) + 1);
  const missingWebhooks = world.webhooks.acknowledged.filter((body) => {
    const key = body.toString('base64');
    const left = inInbox.get(key) ?? 0;
    inInbox.set(key, left - 1);
    return left <= 0;
  }).length;
  const verdict = {
    duplicates: [...byRecipient].filter(([, n]) => n > 1).map(([to, n]) => `${to.slice(0, 4)}…: ${n} messages`),
    stuck: rows.filter((r) => !settled(r) && r.status !== 'unknown').map((r) => `row ${r.id}: ${r.status}`),
    unknown: unknownRows.length,
    unknownSent: unknownRows.filter((r) => (attempts.get(r.id)?.length ?? 0) > 0).length,
    mismatched: differences(rows, truth),
    unposted: unpostedStatuses(truth.messages, world.webhooks.acknowledged),
    missingWebhooks,
    unprocessedWebhooks: stored.filter((s) => s.processed_at === null || s.quarantine_reason !== null).length,
  };
  const counts: Record<string, number> = {};
  for (const r of rows) counts[r.status] = (counts[r.status] ?? 0) + 1;
  const summary =
    `${rows.length} rows ${JSON.stringify(counts)}; ${truth.messages.length} messages accepted; sync errors ${JSON.stringify(truth.syncErrors)}; ` +
    `${verdict.unknown} unknown (${verdict.unknownSent} of them reached Meta); ${verdict.unposted.length} statuses never posted; ${world.webhooks.acknowledged.length} webhooks acknowledged, ${world.webhooks.refused} refused; ${stored.length} stored`;
  return { ...verdict, summary };
}

const STATUS_OF: Record<string, string> = { accepted: 'sent', delivered: 'delivered', read: 'read', failed: 'failed' };

/** Messages whose truth outcome's status (`sent` for accepted) no acknowledged webhook carried. */
export function unpostedStatuses(messages: readonly MessageTruth[], acknowledged: readonly Buffer[]): string[] {
  const posted = new Set<string>();
  for (const body of acknowledged) {
    const parsed = JSON.parse(body.toString('utf8')) as {
      entry?: Array<{ changes?: Array<{ value?: { statuses?: Array<{ id: string; status: string }> } }> }>;
    };
    for (const entry of parsed.entry ?? [])
      for (const change of entry.changes ?? []) for (const st of change.value?.statuses ?? []) posted.add(`${st.id} ${st.status}`);
  }
  return messages.flatMap((m) => {
    const outcome = truthOutcome(m);
    const status = outcome === null ? undefined : STATUS_OF[outcome];
    return status === undefined || posted.has(`${m.wamid} ${status}`) ? [] : [`${m.messageId ?? m.wamid}: ${status} never posted`];
  });
}

/**
 * Rows whose recorded outcome lags what the simulator did (recorded `accepted`, really delivered or
 * read), apart from the rest (another wamid, an outcome ahead of the truth), so a run prints them
 * as such. Once one row in ten thousand or so: the simulator had lost a `read` that came due before
 * the delivery it follows, and never posted either; none is expected now.
 */
export function laggingOnly(mismatched: readonly string[]): { lagging: string[]; other: string[] } {
  const lag = /: sent\/accepted, the simulator says (delivered|read)$/;
  return { lagging: mismatched.filter((m) => lag.test(m)), other: mismatched.filter((m) => !lag.test(m)) };
}

/**
 * Waits until the recorded outcomes match the simulator's, or until only rows lagging behind
 * (laggingOnly) remain while nothing more can arrive to move them: no webhook acknowledged since the
 * previous look, none on its way to the edge, and none stored unprocessed. Waiting longer would
 * change nothing then; judge reports and bounds those rows.
 */
export async function outcomesSettled(world: ScaleWorld, deadline: number, everyMs: number): Promise<boolean> {
  let acknowledged = -1;
  return eventually(
    async () => {
      const diffs = differences(await campaignRows(world), world.sim.groundTruth());
      if (diffs.length === 0) return true;
      const before = acknowledged;
      acknowledged = world.webhooks.acknowledged.length;
      if (acknowledged !== before || world.webhooks.inFlight > 0 || laggingOnly(diffs).other.length > 0) return false;
      const [row] = await world.query<{ n: string }>('SELECT COUNT(*) AS n FROM webhook_inbox WHERE processed_at IS NULL');
      return Number(row?.n) === 0;
    },
    deadline,
    everyMs,
  );
}

/** Accepted messages per whole second of the simulator's clock, busiest first. */
export function busiestSeconds(messages: readonly MessageTruth[], top = 3): Array<{ second: number; accepted: number }> {
  const perSecond = new Map<number, number>();
  for (const m of messages) perSecond.set(Math.floor(m.acceptedAt / 1000), (perSecond.get(Math.floor(m.acceptedAt / 1000)) ?? 0) + 1);
  return [...perSecond]
    .map(([second, accepted]) => ({ second, accepted }))
    .sort((a, b) => b.accepted - a.accepted)
    .slice(0, top);
}
