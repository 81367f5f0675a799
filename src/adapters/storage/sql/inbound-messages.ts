import type { InboundMessage, InboundMessageInput } from '../../../ports/store.js';
import type { SqlRunner } from '../sql-executor.js';
import { int, textOrNull } from './values.js';

const INSERT = `INSERT INTO inbound_messages (contact_id, wamid, type, text, at, recorded_at, phone_number_id)
VALUES ($1, $2, $3, $4, $5, $6, $7)
ON CONFLICT (wamid) DO NOTHING RETURNING id`;

/** Webhooks arrive at least once: the wamid makes a redelivered message a no-op. */
export async function recordInbound(db: SqlRunner, m: InboundMessageInput, now: number): Promise<{ inserted: boolean }> {
  const rows = await db.query(INSERT, [m.contactId, m.wamid, m.type, m.text, m.at, now, m.phoneNumberId ?? null]);
  return { inserted: rows.length === 1 };
}

export async function contactInbound(db: SqlRunner, contactId: number, limit: number): Promise<InboundMessage[]> {
  const rows = await db.query('SELECT * FROM inbound_messages WHERE contact_id = $1 ORDER BY at DESC, id DESC LIMIT $2', [
    contactId,
    limit,
  ]);
  return rows.map((r) => ({
    id: int(r['id']),
    contactId: int(r['contact_id']),
    wamid: String(r['wamid']),
    type: String(r['type']),
    text: textOrNull(r['text']),
    at: int(r['at']),
    phoneNumberId: textOrNull(r['phone_number_id']),
  }));
}
