import type { CampaignCounters, OutboxBreakdownRow, OutboxOutcome, OutboxStatus, RetryRecovery } from '../../../ports/store.js';
import type { SqlRunner } from '../sql-executor.js';
import { int, intOrNull } from './values.js';

function emptyCounters(): CampaignCounters {
  const keys = [
    'queued',
    'held',
    'leased',
    'sending',
    'sent',
    'done',
    'unknown',
    'accepted',
    'delivered',
    'read',
    'failed',
    'skipped',
    'capped_exhausted',
    'cancelled',
    'total',
  ] as const;
  return Object.fromEntries(keys.map((k) => [k, 0])) as CampaignCounters;
}

/** Rows per status and per outcome (a row counts once in each), plus the total. */
export async function campaignCounters(db: SqlRunner, campaignId: number): Promise<CampaignCounters> {
  const rows = await db.query('SELECT status, outcome, COUNT(*) AS n FROM outbox WHERE campaign_id = $1 GROUP BY status, outcome', [
    campaignId,
  ]);
  const counters = emptyCounters();
  for (const row of rows) {
    const n = int(row['n']);
    counters[String(row['status']) as keyof CampaignCounters] += n;
    if (row['outcome'] !== null) counters[String(row['outcome']) as keyof CampaignCounters] += n;
    counters.total += n;
  }
  return counters;
}

export async function outboxBreakdown(db: SqlRunner, campaignId: number): Promise<OutboxBreakdownRow[]> {
  const rows = await db.query(
    `SELECT status, outcome, last_error_code AS code, COUNT(*) AS n FROM outbox WHERE campaign_id = $1
GROUP BY status, outcome, last_error_code ORDER BY status, COALESCE(outcome, ''), COALESCE(last_error_code, 0)`,
    [campaignId],
  );
  return rows.map((r) => ({
    status: String(r['status']) as OutboxStatus,
    outcome: r['outcome'] === null ? null : (String(r['outcome']) as OutboxOutcome),
    code: intOrNull(r['code']),
    count: int(r['n']),
  }));
}

/** `attempts` counts sends, so a row delivered by its first send has 1 and by the first retry 2. */
export async function retryRecovery(db: SqlRunner, campaignId: number): Promise<RetryRecovery> {
  const [delivered, exhausted] = await Promise.all([
    db.query(
      `SELECT attempts, COUNT(*) AS n FROM outbox WHERE campaign_id = $1 AND outcome IN ('delivered', 'read')
GROUP BY attempts ORDER BY attempts`,
      [campaignId],
    ),
    db.query(
      `SELECT COUNT(*) AS n FROM outbox WHERE campaign_id = $1
AND (outcome = 'capped_exhausted' OR (outcome = 'failed' AND attempts > 1))`,
      [campaignId],
    ),
  ]);
  return {
    deliveredByAttempt: delivered.map((r) => ({ attempts: int(r['attempts']), count: int(r['n']) })),
    exhausted: int(exhausted[0]?.['n']),
  };
}

/** A campaign's skipped rows by the reason of their skip decision. */
export async function skipReasons(db: SqlRunner, campaignId: number): Promise<{ reason: string; count: number }[]> {
  const rows = await db.query(
    `SELECT d.reason, COUNT(DISTINCT o.id) AS n FROM outbox o JOIN decisions d ON d.outbox_id = o.id AND d.kind = 'skip'
WHERE o.campaign_id = $1 AND o.outcome = 'skipped' GROUP BY d.reason ORDER BY n DESC, d.reason`,
    [campaignId],
  );
  return rows.map((r) => ({ reason: String(r['reason']), count: int(r['n']) }));
}
