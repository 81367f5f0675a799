import type { CampaignRecipientRow, OutboxOutcome, OutboxStatus, RecipientFilter } from '../../../ports/store.js';
import type { SqlRunner } from '../sql-executor.js';
import { int, intOrNull, textOrNull } from './values.js';

// Keyset paging by id, so a page costs the same however deep it is. The latest decision is one
// descent of decisions_outbox (outbox_id, id) per row of the page. An empty filter matches every row.
const PAGE = `SELECT o.id, o.contact_id, c.phone_e164, c.wa_id, c.bsuid, o.status, o.outcome, o.last_error_code, o.attempts,
  o.cap_attempts, o.next_attempt_at, o.updated_at, d.kind AS decision_kind, d.reason AS decision_reason, d.until AS decision_until,
  d.at AS decision_at
FROM outbox o JOIN contacts c ON c.id = o.contact_id
LEFT JOIN decisions d ON d.id = (SELECT MAX(l.id) FROM decisions l WHERE l.outbox_id = o.id)
WHERE o.campaign_id = $1 AND o.id > $2 AND ($4 = '' OR o.status = $4) AND ($5 = '' OR o.outcome = $5)
ORDER BY o.id LIMIT $3`;

/** A page of a campaign's recipients (its outbox rows), by row id, with each one's latest decision. */
export async function campaignRecipients(db: SqlRunner, f: RecipientFilter): Promise<CampaignRecipientRow[]> {
  const rows = await db.query(PAGE, [f.campaignId, f.afterId, f.limit, f.status ?? '', f.outcome ?? '']);
  return rows.map((r) => {
    const kind = textOrNull(r['decision_kind']);
    return {
      id: int(r['id']),
      contactId: int(r['contact_id']),
      phoneE164: textOrNull(r['phone_e164']),
      waId: textOrNull(r['wa_id']),
      bsuid: textOrNull(r['bsuid']),
      status: String(r['status']) as OutboxStatus,
      outcome: textOrNull(r['outcome']) as OutboxOutcome | null,
      lastErrorCode: intOrNull(r['last_error_code']),
      attempts: int(r['attempts']),
      capAttempts: int(r['cap_attempts']),
      nextAttemptAt: intOrNull(r['next_attempt_at']),
      updatedAt: int(r['updated_at']),
      latestDecision:
        kind === null
          ? null
          : {
              kind: kind as 'send' | 'defer' | 'hold' | 'skip',
              reason: String(r['decision_reason']),
              until: intOrNull(r['decision_until']),
              at: int(r['decision_at']),
            },
    };
  });
}
