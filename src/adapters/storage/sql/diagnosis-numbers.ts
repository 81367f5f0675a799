import type { DiagnosisScope, NumberSends } from '../../../ports/store.js';
import type { SqlRunner } from '../sql-executor.js';
import { scopeSql } from './diagnosis-scope.js';
import { int } from './values.js';

/** The scope's messages and failures per number they went from (each intent names it), most failures first. */
export async function diagnosisNumbers(db: SqlRunner, scope: DiagnosisScope): Promise<NumberSends[]> {
  const { cte, params } = scopeSql(scope);
  const numbered = `, numbered AS (SELECT s.id, o.phone_number_id AS number
  FROM scoped s JOIN outbox o ON o.id = s.id)`;
  const [sent, codes] = await Promise.all([
    db.query(`${cte}${numbered} SELECT number, COUNT(*) AS messages FROM numbered GROUP BY number`, params),
    db.query(
      `${cte}${numbered} SELECT m.number, f.code, COUNT(DISTINCT f.id) AS messages FROM fails f JOIN numbered m ON m.id = f.id
GROUP BY m.number, f.code`,
      params,
    ),
  ]);
  const failed = new Map<string, { ids: number; top: { code: number; n: number } | null }>();
  for (const r of codes) {
    const number = String(r['number'] ?? '');
    const n = int(r['messages']);
    const code = int(r['code']);
    const seen = failed.get(number) ?? { ids: 0, top: null };
    // A message failing with two codes counts under each: the total is capped at its messages below.
    seen.ids += n;
    if (seen.top === null || n > seen.top.n || (n === seen.top.n && code < seen.top.code)) seen.top = { code, n };
    failed.set(number, seen);
  }
  return sent
    .map((r) => {
      const number = String(r['number'] ?? '');
      const messages = int(r['messages']);
      const f = failed.get(number);
      return { phoneNumberId: number, messages, failed: Math.min(messages, f?.ids ?? 0), topCode: f?.top?.code ?? null };
    })
    .sort((a, b) => b.failed - a.failed || b.messages - a.messages || a.phoneNumberId.localeCompare(b.phoneNumberId));
}
