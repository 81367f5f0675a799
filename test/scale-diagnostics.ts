import type { DispatchStatus } from '../src/app/dispatch-status.js';
import type { PacerProcess, ScaleWorld } from './scale-rig.js';

/**
 * What a scale run looks like when it did not finish in time, for the failure message: each
 * worker's dispatcher (from its /healthz), the sender's backoff, the shared pace bucket, who holds
 * leases, the open rows by status and due time, and this world's database sessions. Times are
 * relative to now (negative: in the past).
 */
export async function stallReport(world: ScaleWorld): Promise<string> {
  try {
    return await report(world);
  } catch (error) {
    // The report must never hide the failure it explains.
    return `stall report failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`;
  }
}

async function report(world: ScaleWorld): Promise<string> {
  const now = Date.now();
  const rel = (at: unknown): string => (at === null || at === undefined ? '-' : `${((Number(at) - now) / 1000).toFixed(1)} s`);
  const lines: string[] = [`stall report at ${new Date(now).toISOString()} (times relative to now)`];

  for (const [slot, p] of world.workers.entries()) lines.push(`worker ${slot}: ${await workerLine(p)}`);

  for (const s of await world.query('SELECT phone_number_id, state, state_reason, state_until, throughput_mps FROM senders')) {
    lines.push(
      `sender ${String(s['phone_number_id'])}: ${String(s['state'])} until ${rel(s['state_until'])} (${String(s['state_reason'] ?? '-')}), ${String(s['throughput_mps'])} mps`,
    );
  }
  for (const b of await world.query('SELECT pace_key, tokens, refilled_at, granted FROM send_pace')) {
    lines.push(
      `send_pace ${String(b['pace_key'])}: ${Number(b['tokens']).toFixed(2)} tokens, refilled ${rel(b['refilled_at'])}, last grant ${String(b['granted'])}`,
    );
  }
  const [campaign] = await world.query('SELECT status, pause_reason FROM campaigns WHERE id = $1', [world.campaignId]);
  lines.push(`campaign: ${String(campaign?.['status'])}${campaign?.['pause_reason'] ? ` (${String(campaign['pause_reason'])})` : ''}`);

  const leases = await world.query(
    `SELECT lease_owner, status, COUNT(*) AS n, MIN(lease_expires_at) AS first, MAX(lease_expires_at) AS last
     FROM outbox WHERE lease_owner IS NOT NULL GROUP BY lease_owner, status ORDER BY lease_owner, status`,
  );
  lines.push(
    leases.length === 0
      ? 'leases: none held'
      : `leases: ${leases.map((l) => `${String(l['lease_owner'])} ${String(l['status'])} ${String(l['n'])} (expiring ${rel(l['first'])} .. ${rel(l['last'])})`).join('; ')}`,
  );

  const open = await world.query(
    `SELECT status,
       CASE WHEN next_attempt_at IS NULL THEN 'no due time' WHEN next_attempt_at <= CAST($2 AS BIGINT) - 60000 THEN 'overdue > 60 s'
         WHEN next_attempt_at <= CAST($2 AS BIGINT) - 5000 THEN 'overdue 5-60 s' WHEN next_attempt_at <= CAST($2 AS BIGINT) THEN 'due (< 5 s)'
         WHEN next_attempt_at <= CAST($2 AS BIGINT) + 30000 THEN 'due within 30 s' ELSE 'later' END AS due,
       COUNT(*) AS n, MIN(next_attempt_at) AS first, MAX(next_attempt_at) AS last, MIN(attempts) AS fewest, MAX(attempts) AS most
     FROM outbox WHERE campaign_id = $1 AND status NOT IN ('sent', 'done') GROUP BY 1, 2 ORDER BY 1, MIN(next_attempt_at)`,
    [world.campaignId, now],
  );
  for (const r of open) {
    lines.push(
      `rows ${String(r['status'])} ${String(r['due'])}: ${String(r['n'])} (next_attempt_at ${rel(r['first'])} .. ${rel(r['last'])}; attempts ${String(r['fewest'])}..${String(r['most'])})`,
    );
  }

  const names = world.pids().flatMap((pid) => [`pacer serve ${pid}`, `pacer worker ${pid}`]);
  const sessions = await world.query(
    `SELECT application_name, state, wait_event_type, wait_event, COUNT(*) AS n, EXTRACT(EPOCH FROM now() - MIN(xact_start)) AS oldest_xact_s
     FROM pg_stat_activity WHERE application_name = ANY($1) GROUP BY 1, 2, 3, 4 ORDER BY 1, 2`,
    [names],
  );
  for (const s of sessions) {
    const xact = s['oldest_xact_s'] === null ? '' : `, oldest transaction open ${Number(s['oldest_xact_s']).toFixed(1)} s`;
    lines.push(
      `db ${String(s['application_name'])}: ${String(s['n'])} ${String(s['state'])}${s['wait_event'] ? ` waiting on ${String(s['wait_event_type'])}/${String(s['wait_event'])}` : ''}${xact}`,
    );
  }
  return lines.join('\n');
}

async function workerLine(p: PacerProcess | null): Promise<string> {
  if (p === null) return 'not running';
  if (p.child.exitCode !== null || p.child.signalCode !== null)
    return `exited (${p.child.exitCode ?? p.child.signalCode}); last output: ${tail(p.output())}`;
  const url = /health at (\S+)/.exec(p.output())?.[1];
  if (url === undefined) return `pid ${p.child.pid}: no health address in its output`;
  let status: DispatchStatus | null;
  try {
    const answer = await fetch(url, { signal: AbortSignal.timeout(5000) });
    status = ((await answer.json()) as { dispatch?: DispatchStatus | null }).dispatch ?? null;
  } catch (error) {
    return `pid ${p.child.pid}: /healthz did not answer (${error instanceof Error ? error.message : String(error)}); last output: ${tail(p.output())}`;
  }
  if (status === null) return `pid ${p.child.pid}: not dispatching`;
  const { running, last, next, pace } = status;
  // Relative to the worker's own report: it answered a moment after the report began.
  const rel = (at: number): string => `${((at - status.now) / 1000).toFixed(1)} s`;
  const parts = [`pid ${p.child.pid}: ${status.passes} passes (${status.failures} failed)`];
  parts.push(
    running === null
      ? 'between passes'
      : `in a pass since ${rel(running.startedAt)}, step ${running.step ?? '-'} since ${rel(running.stepSince)} with ${running.rows} rows`,
  );
  if (last !== null) {
    const what =
      last.result === null
        ? `failed: ${last.failure ?? '?'}`
        : JSON.stringify(Object.fromEntries(Object.entries(last.result).filter(([, v]) => v !== 0 && v !== null)));
    parts.push(`last pass ${rel(last.startedAt)} .. ${rel(last.endedAt)} ${what}`);
  }
  if (next !== null) parts.push(`next pass ${rel(next.at)} (${next.why})`);
  if (pace !== null)
    parts.push(`last pace grant ${pace.granted} of ${pace.wanted} at ${rel(pace.at)}, bucket full enough ${rel(pace.nextAt)}`);
  const errors = p
    .output()
    .split('\n')
    .filter((l) => l.startsWith('pacer: '))
    .slice(-3);
  if (errors.length > 0) parts.push(`last errors: ${errors.join(' | ')}`);
  return parts.join('; ');
}

function tail(text: string): string {
  return text.trim().split('\n').slice(-5).join(' | ');
}
