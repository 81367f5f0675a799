import type { Campaign, CampaignStatus, Sender, Template } from '../../../ports/store.js';
import type { SqlRunner } from '../sql-executor.js';
import { toCampaign } from './campaigns.js';
import { toSender, toTemplate } from './catalog.js';

/** Whole-table reads for the few, small catalogue tables (senders, templates, campaigns). */

export async function listSenders(db: SqlRunner): Promise<Sender[]> {
  return (await db.query('SELECT * FROM senders ORDER BY id')).map(toSender);
}

export async function getSenderById(db: SqlRunner, id: number): Promise<Sender | null> {
  const [row] = await db.query('SELECT * FROM senders WHERE id = $1', [id]);
  return row ? toSender(row) : null;
}

export async function getTemplateById(db: SqlRunner, id: number): Promise<Template | null> {
  const [row] = await db.query('SELECT * FROM templates WHERE id = $1', [id]);
  return row ? toTemplate(row) : null;
}

export async function listTemplates(db: SqlRunner): Promise<Template[]> {
  return (await db.query('SELECT * FROM templates ORDER BY name, language')).map(toTemplate);
}

export async function listCampaigns(db: SqlRunner, filter: { status?: CampaignStatus }): Promise<Campaign[]> {
  const rows =
    filter.status === undefined
      ? await db.query('SELECT * FROM campaigns ORDER BY id')
      : await db.query('SELECT * FROM campaigns WHERE status = $1 ORDER BY id', [filter.status]);
  return rows.map((row) => toCampaign(db.caps, row));
}
