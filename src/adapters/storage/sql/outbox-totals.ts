import type { OutboxOutcome, OutboxStatus, OutboxTotals } from '../../../ports/store.js';
import type { SqlRunner } from '../sql-executor.js';
import { int } from './values.js';

const STATUSES: readonly OutboxStatus[] = ['queued', 'held', 'leased', 'sending', 'sent', 'done', 'unknown'];
const OUTCOMES: readonly OutboxOutcome[] = ['accepted', 'delivered', 'read', 'failed', 'skipped', 'capped_exhausted', 'cancelled'];

/** Every outbox row counted once by status and, when it has one, once by outcome. */
export async function outboxTotals(db: SqlRunner): Promise<OutboxTotals> {
  const rows = await db.query('SELECT status, outcome, COUNT(*) AS n FROM outbox GROUP BY status, outcome');
  const totals: OutboxTotals = {
    byStatus: Object.fromEntries(STATUSES.map((s) => [s, 0])) as Record<OutboxStatus, number>,
    byOutcome: Object.fromEntries(OUTCOMES.map((o) => [o, 0])) as Record<OutboxOutcome, number>,
  };
  for (const row of rows) {
    const n = int(row['n']);
    totals.byStatus[String(row['status']) as OutboxStatus] += n;
    if (row['outcome'] !== null && row['outcome'] !== undefined) totals.byOutcome[String(row['outcome']) as OutboxOutcome] += n;
  }
  return totals;
}
