import type { DiagnosisScope } from '../../../ports/store.js';
import type { SqlParam } from '../sql-executor.js';

/** The common start of every diagnosis query, with its parameters; further ones number from `next`. */
export interface ScopeSql {
  cte: string;
  params: SqlParam[];
  next: number;
}

/**
 * `attempts`: the send decisions of the window (of one campaign, or all); `scoped`: the outbox rows
 * they belong to, with their template and latest send; `fails`: one row per failed attempt of those rows. Failures
 * come from status webhooks (each with its wamid) and, for refusals of the send itself, from the
 * row's last error code when no webhook reported that code: a refusal a later retry overcame leaves
 * no trace, so synchronous failures are a lower bound.
 * $1 is `since`, $2 `until`.
 */
export function scopeSql(scope: DiagnosisScope): ScopeSql {
  const params: SqlParam[] = [scope.since, scope.until];
  let campaignFilter = '';
  if (scope.campaignId !== null) {
    params.push(scope.campaignId);
    campaignFilter = `AND o.campaign_id = $${params.length}`;
  }
  const cte = `WITH attempts AS (
  SELECT d.outbox_id AS id, d.at FROM decisions d JOIN outbox o ON o.id = d.outbox_id
  WHERE d.kind = 'send' AND d.at >= $1 AND d.at < $2 ${campaignFilter}
),
scoped AS (
  SELECT o.id, o.contact_id, o.category, o.campaign_id, c.template_id, o.outcome, o.updated_at, o.last_error_code, a.sent_at
  FROM outbox o JOIN (SELECT id, MAX(at) AS sent_at FROM attempts GROUP BY id) a ON a.id = o.id LEFT JOIN campaigns c ON c.id = o.campaign_id
),
fails AS (
  SELECT s.id, s.contact_id, e.error_code AS code, e.wamid FROM scoped s JOIN message_events e ON e.outbox_id = s.id
  WHERE e.status = 'failed' AND e.error_code IS NOT NULL AND e.at >= $1 AND e.at < $2
  UNION
  SELECT s.id, s.contact_id, s.last_error_code AS code, NULL AS wamid FROM scoped s
  WHERE s.last_error_code IS NOT NULL AND s.updated_at >= $1
    AND NOT EXISTS (SELECT 1 FROM message_events e WHERE e.outbox_id = s.id AND e.status = 'failed' AND e.error_code = s.last_error_code)
)`;
  return { cte, params, next: params.length + 1 };
}
