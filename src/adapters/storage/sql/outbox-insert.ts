import type { Category } from '../../../core/category.js';
import type { JsonObject, OutboxInput, OutboxOutcome, OutboxRow, OutboxStatus } from '../../../ports/store.js';
import type { Capabilities } from '../capabilities.js';
import type { SqlParam, SqlRow, SqlRunner, SqlSession } from '../sql-executor.js';
import { chunks, int, intOrNull, json, textOrNull, toJson, valuesList } from './values.js';

export function toOutbox(caps: Capabilities, row: SqlRow): OutboxRow {
  return { ...outboxFields(row), intent: json(caps, row['intent']) };
}

/** Every column of a row but its intent. */
export function outboxFields(row: SqlRow): Omit<OutboxRow, 'intent'> {
  return {
    id: int(row['id']),
    campaignId: intOrNull(row['campaign_id']),
    contactId: int(row['contact_id']),
    senderId: intOrNull(row['sender_id']),
    category: String(row['category']) as Category,
    idempotencyKey: textOrNull(row['idempotency_key']),
    clientReference: textOrNull(row['client_reference']),
    nextAttemptAt: intOrNull(row['next_attempt_at']) ?? 0,
    status: String(row['status']) as OutboxStatus,
    attempts: int(row['attempts']),
    capAttempts: int(row['cap_attempts']),
    leaseOwner: textOrNull(row['lease_owner']),
    leaseExpiresAt: intOrNull(row['lease_expires_at']),
    wamid: textOrNull(row['wamid']),
    lastErrorCode: intOrNull(row['last_error_code']),
    outcome: textOrNull(row['outcome']) as OutboxOutcome | null,
    createdAt: int(row['created_at']),
    updatedAt: int(row['updated_at']),
  };
}

const COLUMNS =
  'campaign_id, contact_id, sender_id, category, intent, phone_number_id, idempotency_key, client_reference, status, next_attempt_at, created_at, updated_at';
const WIDTH = 12;

/** The number a row goes from, which every intent names; its own column so a worker claims by it without reading JSON. */
export function numberOf(intent: JsonObject): string | null {
  const n = intent['phoneNumberId'];
  return typeof n === 'string' ? n : null;
}

/**
 * Many rows per statement. ON CONFLICT DO NOTHING covers both unique keys — (campaign_id, contact_id)
 * and idempotency_key — so planning a campaign twice, or retrying a one-off request, adds nothing.
 */
export function insertOutbox(db: SqlSession, rows: readonly OutboxInput[], now: number): Promise<{ inserted: number }> {
  return db.transaction('insertOutbox', async (tx) => {
    let inserted = 0;
    for (const chunk of chunks(rows, WIDTH, tx.caps)) {
      const params: SqlParam[] = chunk.flatMap((r) => [
        r.campaignId,
        r.contactId,
        r.senderId,
        r.category,
        toJson(r.intent),
        numberOf(r.intent),
        r.idempotencyKey,
        r.clientReference ?? null,
        'queued',
        r.nextAttemptAt,
        now,
        now,
      ]);
      // The count of rows written is the count inserted: DO NOTHING skips the rest.
      const sql = `INSERT INTO outbox (${COLUMNS}) VALUES ${valuesList(chunk.length, WIDTH)} ON CONFLICT DO NOTHING`;
      inserted += await tx.execute(sql, params);
    }
    if (inserted > 0) await tx.notifyQueued(rows.reduce((at, r) => Math.min(at, r.nextAttemptAt), Infinity));
    return { inserted };
  });
}

export async function getOutbox(db: SqlRunner, id: number): Promise<OutboxRow | null> {
  const [row] = await db.query('SELECT * FROM outbox WHERE id = $1', [id]);
  return row ? toOutbox(db.caps, row) : null;
}

export async function findOutboxByKey(db: SqlRunner, idempotencyKey: string): Promise<OutboxRow | null> {
  const [row] = await db.query('SELECT * FROM outbox WHERE idempotency_key = $1', [idempotencyKey]);
  return row ? toOutbox(db.caps, row) : null;
}
