import type { Campaign, CampaignStatus, Sender, Template } from '../../../ports/store.js';
import type { SqlRunner } from '../sql-executor.js';
import { getCampaign } from './campaigns.js';
import { getSender, getTemplate } from './catalog.js';
import { int } from './values.js';

export async function listSenders(db: SqlRunner): Promise<Sender[]> {
  const rows = await db.query('SELECT phone_number_id FROM senders ORDER BY id', []);
  const senders = await Promise.all(rows.map((r) => getSender(db, String(r['phone_number_id']))));
  return senders.filter((s): s is Sender => s !== null);
}

export async function getSenderById(db: SqlRunner, id: number): Promise<Sender | null> {
  const [row] = await db.query('SELECT phone_number_id FROM senders WHERE id = $1', [id]);
  return row ? getSender(db, String(row['phone_number_id'])) : null;
}

export async function getTemplateById(db: SqlRunner, id: number): Promise<Template | null> {
  const [row] = await db.query('SELECT name, language FROM templates WHERE id = $1', [id]);
  return row ? getTemplate(db, String(row['name']), String(row['language'])) : null;
}

export async function listTemplates(db: SqlRunner): Promise<Template[]> {
  const rows = await db.query('SELECT name, language FROM templates ORDER BY name, language', []);
  const templates = await Promise.all(rows.map((r) => getTemplate(db, String(r['name']), String(r['language']))));
  return templates.filter((t): t is Template => t !== null);
}

export async function listCampaigns(db: SqlRunner, filter: { status?: CampaignStatus }): Promise<Campaign[]> {
  const rows = filter.status === undefined
    ? await db.query('SELECT id FROM campaigns ORDER BY id', [])
    : await db.query('SELECT id FROM campaigns WHERE status = $1 ORDER BY id', [filter.status]);
  const campaigns = await Promise.all(rows.map((r) => getCampaign(db, int(r['id']))));
  return campaigns.filter((c): c is Campaign => c !== null);
}
