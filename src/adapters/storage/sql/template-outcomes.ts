import type { OutboxOutcome, TemplateOutcomeRow } from '../../../ports/store.js';
import type { SqlRunner } from '../sql-executor.js';
import { int, intOrNull } from './values.js';

/** Attempted campaign rows (NULLs sort first on both backends) per template (through their campaign), by outcome and last error code. */
export async function templateOutcomes(db: SqlRunner): Promise<TemplateOutcomeRow[]> {
  const rows = await db.query(
    `SELECT c.template_id, o.outcome, o.last_error_code AS code, COUNT(*) AS n
FROM outbox o JOIN campaigns c ON c.id = o.campaign_id
WHERE o.attempts > 0
GROUP BY c.template_id, o.outcome, o.last_error_code
ORDER BY c.template_id, COALESCE(o.outcome, ''), COALESCE(o.last_error_code, 0)`,
  );
  return rows.map((r) => ({
    templateId: int(r['template_id']),
    outcome: r['outcome'] === null ? null : (String(r['outcome']) as OutboxOutcome),
    code: intOrNull(r['code']),
    count: int(r['n']),
  }));
}
