import type { DiagnosisScope, DiagnosisSends } from '../../../ports/store.js';
import type { SqlRunner } from '../sql-executor.js';
import { scopeSql } from './diagnosis-scope.js';
import { int } from './values.js';

/** How much the scope sent, which codes failed how many messages and recipients, and how failures spread. */
export async function diagnosisSends(db: SqlRunner, scope: DiagnosisScope): Promise<DiagnosisSends> {
  const { cte, params, next } = scopeSql(scope);
  const [totals, codes, spread] = await Promise.all([
    db.query(
      `${cte}
SELECT (SELECT COUNT(*) FROM attempts) AS attempts, (SELECT COUNT(*) FROM scoped) AS messages,
  (SELECT COUNT(DISTINCT contact_id) FROM scoped) AS recipients`,
      params,
    ),
    db.query(
      `${cte}
SELECT code, COUNT(DISTINCT id) AS messages, COUNT(DISTINCT contact_id) AS recipients FROM fails
GROUP BY code ORDER BY COUNT(DISTINCT id) DESC, code`,
      params,
    ),
    db.query(
      `${cte}
SELECT COUNT(*) AS recipients, COALESCE(SUM(n), 0) AS attempts, COALESCE(SUM(CASE WHEN n >= $${next} THEN 1 ELSE 0 END), 0) AS repeated,
  COALESCE(MAX(n), 0) AS worst
FROM (SELECT contact_id, COUNT(*) AS n FROM fails GROUP BY contact_id) per_contact`,
      [...params, scope.repeatedFailures],
    ),
  ]);
  const t = totals[0] ?? {};
  const s = spread[0] ?? {};
  return {
    messages: int(t['messages'] ?? 0),
    recipients: int(t['recipients'] ?? 0),
    attempts: int(t['attempts'] ?? 0),
    failures: codes.map((r) => ({ code: int(r['code']), messages: int(r['messages']), recipients: int(r['recipients']) })),
    failing: {
      recipients: int(s['recipients'] ?? 0),
      attempts: int(s['attempts'] ?? 0),
      repeated: int(s['repeated'] ?? 0),
      worst: int(s['worst'] ?? 0),
    },
  };
}

/** Send attempts of all traffic in [since, until). */
export async function sendAttempts(db: SqlRunner, since: number, until: number): Promise<number> {
  const [row] = await db.query(`SELECT COUNT(*) AS n FROM decisions WHERE kind = 'send' AND at >= $1 AND at < $2`, [since, until]);
  return int(row?.['n'] ?? 0);
}
