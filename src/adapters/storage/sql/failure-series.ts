import type { FailureBucket } from '../../../ports/store.js';
import type { SqlParam, SqlRunner } from '../sql-executor.js';
import { int, intOrNull } from './values.js';

// SQLite binds the bucket as a real, so the division is cast back to a whole number on both backends.
// Settled failures by the time they settled (the row's last update) and code; the outcome index
// (outcome, updated_at, last_error_code) answers it without touching the table for all rows.
const SERIES = (campaign: string) => `SELECT CAST(updated_at / $2 AS BIGINT) * $2 AS bucket, last_error_code AS code, COUNT(*) AS n
FROM outbox WHERE outcome IN ('failed', 'capped_exhausted') AND updated_at >= $1${campaign}
GROUP BY CAST(updated_at / $2 AS BIGINT) * $2, last_error_code
ORDER BY bucket, code`;

export async function failuresByCode(db: SqlRunner, campaignId: number | null, since: number, bucketMs: number): Promise<FailureBucket[]> {
  if (!Number.isInteger(bucketMs) || bucketMs <= 0)
    throw new RangeError(`bucketMs must be a positive whole number of milliseconds, got ${bucketMs}`);
  const [sql, params]: [string, SqlParam[]] =
    campaignId === null ? [SERIES(''), [since, bucketMs]] : [SERIES(' AND campaign_id = $3'), [since, bucketMs, campaignId]];
  const rows = await db.query(sql, params);
  return rows.map((r) => ({ bucketStart: int(r['bucket']), code: intOrNull(r['code']), count: int(r['n']) }));
}
