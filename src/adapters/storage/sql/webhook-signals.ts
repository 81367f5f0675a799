import { createHash } from 'node:crypto';
import type { SignalClaim } from '../../../ports/store.js';
import type { SqlSession } from '../sql-executor.js';
import { intOrNull } from './values.js';

const INSERT = `INSERT INTO webhook_signals (subject, fingerprint, at, recorded_at) VALUES ($1, $2, $3, $4)
ON CONFLICT (subject, fingerprint) DO NOTHING RETURNING at`;

/** Refused when older than the newest applied about the subject, or already applied; keeps only the newest instant's. */
export function claimSignal(db: SqlSession, signal: SignalClaim, now: number): Promise<boolean> {
  return db.transaction('claimSignal', async (tx) => {
    const [latest] = await tx.query('SELECT MAX(at) AS at FROM webhook_signals WHERE subject = $1', [signal.subject]);
    const newest = intOrNull(latest?.['at']);
    if (newest !== null && newest > signal.at) return false;
    // Older signals are refused by their time from now on: only the newest instant's need keeping.
    await tx.execute('DELETE FROM webhook_signals WHERE subject = $1 AND at < $2', [signal.subject, signal.at]);
    const digest = createHash('sha256').update(signal.fingerprint).digest('hex');
    return (await tx.query(INSERT, [signal.subject, digest, signal.at, now])).length === 1;
  });
}
