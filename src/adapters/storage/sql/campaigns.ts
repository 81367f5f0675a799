import type { Campaign, CampaignInput, CampaignStatus, JsonObject } from '../../../ports/store.js';
import type { Capabilities } from '../capabilities.js';
import type { SqlRow, SqlRunner } from '../sql-executor.js';
import { int, intOrNull, json, textOrNull, toJson } from './values.js';

function toCampaign(caps: Capabilities, row: SqlRow): Campaign {
  return {
    id: int(row['id']),
    name: String(row['name']),
    templateId: int(row['template_id']),
    senderId: int(row['sender_id']),
    segment: json(caps, row['segment']),
    scheduledAt: intOrNull(row['scheduled_at']),
    endsAt: intOrNull(row['ends_at']),
    frequencyCap: frequencyCapOf(row),
    parameters: row['parameters'] === null || row['parameters'] === undefined ? null : json<JsonObject>(caps, row['parameters']),
    senderPool: row['sender_pool'] === null || row['sender_pool'] === undefined ? null : json<JsonObject>(caps, row['sender_pool']),
    timing: row['timing'] === null || row['timing'] === undefined ? null : json<JsonObject>(caps, row['timing']),
    policyPreset: String(row['policy_preset']),
    status: String(row['status']) as CampaignStatus,
    pauseReason: textOrNull(row['pause_reason']),
    createdAt: int(row['created_at']),
    updatedAt: int(row['updated_at']),
  };
}

function frequencyCapOf(row: SqlRow): Campaign['frequencyCap'] {
  const max = intOrNull(row['frequency_cap_max']);
  return max === null ? null : { max, windowMs: int(row['frequency_cap_window_ms']) };
}

const CREATE = `INSERT INTO campaigns (name, template_id, sender_id, segment, scheduled_at, policy_preset, status, created_at, updated_at, ends_at,
  frequency_cap_max, frequency_cap_window_ms, parameters, sender_pool, timing)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8, $9, $10, $11, $12, $13, $14) RETURNING id`;

export async function createCampaign(db: SqlRunner, c: CampaignInput, now: number): Promise<number> {
  const cap = c.frequencyCap ?? null;
  const rows = await db.query(CREATE, [
    c.name,
    c.templateId,
    c.senderId,
    toJson(c.segment),
    c.scheduledAt,
    c.policyPreset,
    c.status,
    now,
    c.endsAt ?? null,
    cap?.max ?? null,
    cap?.windowMs ?? null,
    c.parameters == null ? null : toJson(c.parameters),
    c.senderPool == null ? null : toJson(c.senderPool),
    c.timing == null ? null : toJson(c.timing),
  ]);
  return int(rows[0]?.['id']);
}

export async function getCampaign(db: SqlRunner, id: number): Promise<Campaign | null> {
  const [row] = await db.query('SELECT * FROM campaigns WHERE id = $1', [id]);
  return row ? toCampaign(db.caps, row) : null;
}

export async function listCampaigns(db: SqlRunner, filter: { status?: CampaignStatus }): Promise<Campaign[]> {
  const rows =
    filter.status === undefined
      ? await db.query('SELECT * FROM campaigns ORDER BY id')
      : await db.query('SELECT * FROM campaigns WHERE status = $1 ORDER BY id', [filter.status]);
  return rows.map((row) => toCampaign(db.caps, row));
}

export async function setCampaignStatus(
  db: SqlRunner,
  id: number,
  status: CampaignStatus,
  pauseReason: string | null,
  now: number,
): Promise<boolean> {
  const changed = await db.execute('UPDATE campaigns SET status = $2, pause_reason = $3, updated_at = $4 WHERE id = $1', [
    id,
    status,
    pauseReason,
    now,
  ]);
  // Running (started or resumed): its rows are claimable again.
  if (changed === 1 && status === 'running') await db.notifyQueued(now);
  return changed === 1;
}

/** Only a draft: once started, its rows are planned for the time it had. */
export async function setDraftSchedule(db: SqlRunner, id: number, scheduledAt: number | null, now: number): Promise<boolean> {
  const changed = await db.execute(`UPDATE campaigns SET scheduled_at = $2, updated_at = $3 WHERE id = $1 AND status = 'draft'`, [
    id,
    scheduledAt,
    now,
  ]);
  return changed === 1;
}
