import type { DiagnosisAudience, DiagnosisScope } from '../../../ports/store.js';
import type { SqlRunner } from '../sql-executor.js';
import { scopeSql } from './diagnosis-scope.js';
import { int, jsonValue, textOrNull } from './values.js';

/**
 * Consent of the affected audience (the recipients that failed, or everyone in scope when nobody
 * did), and what the recipients did since the window began: wrote in, or stopped marketing (and how).
 */
export async function diagnosisAudience(db: SqlRunner, scope: DiagnosisScope): Promise<DiagnosisAudience> {
  const { cte, params } = scopeSql(scope);
  const caps = db.caps;
  const inbound = jsonValue(caps, 'cs.state', ['lastInboundAt'], 'number');
  const stoppedAt = jsonValue(caps, 'cs.state', ['marketing', 'stopped', 'at'], 'number');
  const stopType = jsonValue(caps, 'cs.state', ['marketing', 'stopped', 'type'], 'text');
  const stopDetail = jsonValue(caps, 'cs.state', ['marketing', 'stopped', 'detail'], 'text');
  const [consent, actions] = await Promise.all([
    db.query(
      `${cte},
target AS (
  SELECT DISTINCT contact_id FROM fails
  UNION SELECT DISTINCT contact_id FROM scoped WHERE NOT EXISTS (SELECT 1 FROM fails)
)
SELECT COALESCE(cc.status, 'unknown') AS status, cc.source, COUNT(*) AS n
FROM target t LEFT JOIN consent_current cc ON cc.contact_id = t.contact_id AND cc.category = 'marketing'
GROUP BY COALESCE(cc.status, 'unknown'), cc.source`,
      params,
    ),
    db.query(
      `${cte},
people AS (
  SELECT ${inbound} AS inbound_at, ${stoppedAt} AS stopped_at,
    CASE WHEN ${stopType} = 'preference' THEN 'user_preferences' WHEN ${stopDetail} LIKE 'button:%' THEN 'button'
      WHEN ${stopDetail} LIKE 'keyword:%' THEN 'keyword' ELSE '131050' END AS kind
  FROM (SELECT DISTINCT contact_id FROM scoped) r JOIN contact_states cs ON cs.contact_id = r.contact_id
)
SELECT 'replied' AS kind, COUNT(*) AS n FROM people WHERE inbound_at >= $1 AND inbound_at < $2
UNION ALL
SELECT kind, COUNT(*) AS n FROM people WHERE stopped_at >= $1 AND stopped_at < $2 GROUP BY kind`,
      params,
    ),
  ]);
  return { consent: consentMix(consent), ...actionCounts(actions) };
}

function consentMix(rows: readonly Record<string, unknown>[]): DiagnosisAudience['consent'] {
  const mix = { recipients: 0, granted: 0, revoked: 0, unknown: 0, sources: [] as { source: string; recipients: number }[] };
  for (const r of rows) {
    const n = int(r['n']);
    const status = String(r['status']);
    mix.recipients += n;
    if (status === 'granted') {
      mix.granted += n;
      mix.sources.push({ source: textOrNull(r['source']) ?? 'unknown', recipients: n });
    } else if (status === 'revoked') mix.revoked += n;
    else mix.unknown += n;
  }
  mix.sources.sort((a, b) => b.recipients - a.recipients || a.source.localeCompare(b.source));
  return mix;
}

function actionCounts(rows: readonly Record<string, unknown>[]): Omit<DiagnosisAudience, 'consent'> {
  let replied = 0;
  const stopKinds: { kind: string; recipients: number }[] = [];
  for (const r of rows) {
    if (r['kind'] === 'replied') replied = int(r['n']);
    else if (int(r['n']) > 0) stopKinds.push({ kind: String(r['kind']), recipients: int(r['n']) });
  }
  stopKinds.sort((a, b) => b.recipients - a.recipients || a.kind.localeCompare(b.kind));
  return { replied, stopped: stopKinds.reduce((n, k) => n + k.recipients, 0), stopKinds };
}
