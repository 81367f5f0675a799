import type { Sender, SenderInput, SenderProfile, SenderState } from '../../../ports/store.js';
import type { SqlRow, SqlRunner, SqlSession } from '../sql-executor.js';
import { int, intOrNull, textOrNull } from './values.js';

function toSender(row: SqlRow): Sender {
  return {
    id: int(row['id']),
    phoneNumberId: String(row['phone_number_id']),
    displayNumber: String(row['display_number']),
    qualityRating: textOrNull(row['quality_rating']),
    throughputMps: int(row['throughput_mps']),
    messagingLimitTier: textOrNull(row['messaging_limit_tier']),
    state: String(row['state']) as SenderState,
    stateReason: textOrNull(row['state_reason']),
    stateUntil: intOrNull(row['state_until']),
    updatedAt: int(row['updated_at']),
    businessAccountId: textOrNull(row['business_account_id']),
    portfolioId: textOrNull(row['portfolio_id']),
    verifiedName: textOrNull(row['verified_name']),
    metaStatus: textOrNull(row['meta_status']),
    nameStatus: textOrNull(row['name_status']),
    throughputLevel: textOrNull(row['throughput_level']),
    syncedAt: intOrNull(row['synced_at']),
  };
}

const UPSERT_SENDER = `INSERT INTO senders (phone_number_id, display_number, quality_rating, throughput_mps,
  messaging_limit_tier, state, state_reason, state_until, updated_at)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
ON CONFLICT (phone_number_id) DO UPDATE SET display_number = excluded.display_number,
  quality_rating = excluded.quality_rating, throughput_mps = excluded.throughput_mps,
  messaging_limit_tier = excluded.messaging_limit_tier, state = excluded.state,
  state_reason = excluded.state_reason, state_until = excluded.state_until, updated_at = excluded.updated_at
RETURNING id`;

export function upsertSenders(db: SqlSession, senders: readonly SenderInput[], now: number): Promise<number[]> {
  return db.transaction('upsertSenders', async (tx) => {
    const ids: number[] = [];
    for (const s of senders) {
      const rows = await tx.query(UPSERT_SENDER, [
        s.phoneNumberId,
        s.displayNumber,
        s.qualityRating,
        s.throughputMps,
        s.messagingLimitTier,
        s.state,
        s.stateReason,
        s.stateUntil,
        now,
      ]);
      ids.push(int(rows[0]?.['id']));
    }
    return ids;
  });
}

export async function getSender(db: SqlRunner, phoneNumberId: string): Promise<Sender | null> {
  const [row] = await db.query('SELECT * FROM senders WHERE phone_number_id = $1', [phoneNumberId]);
  return row ? toSender(row) : null;
}

export async function getSenderById(db: SqlRunner, id: number): Promise<Sender | null> {
  const [row] = await db.query('SELECT * FROM senders WHERE id = $1', [id]);
  return row ? toSender(row) : null;
}

export async function listSenders(db: SqlRunner): Promise<Sender[]> {
  return (await db.query('SELECT * FROM senders ORDER BY id')).map(toSender);
}

export async function setSenderState(
  db: SqlRunner,
  phoneNumberId: string,
  state: SenderState,
  reason: string | null,
  until: number | null,
  now: number,
): Promise<boolean> {
  const changed = await db.execute(
    'UPDATE senders SET state = $2, state_reason = $3, state_until = $4, updated_at = $5 WHERE phone_number_id = $1',
    [phoneNumberId, state, reason, until, now],
  );
  return changed === 1;
}

export async function setSenderProfile(db: SqlRunner, phoneNumberId: string, p: SenderProfile): Promise<boolean> {
  const changed = await db.execute(
    `UPDATE senders SET business_account_id = $2, portfolio_id = $3, verified_name = $4, meta_status = $5,
  name_status = $6, throughput_level = $7, synced_at = $8 WHERE phone_number_id = $1`,
    [phoneNumberId, p.businessAccountId, p.portfolioId, p.verifiedName, p.metaStatus, p.nameStatus, p.throughputLevel, p.syncedAt],
  );
  return changed === 1;
}
