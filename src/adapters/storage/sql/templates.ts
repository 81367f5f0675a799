import type { Category } from '../../../core/category.js';
import type { TemplateStatus } from '../../../core/decision.js';
import type { ParameterFormat } from '../../../core/template-definition.js';
import type { Capabilities } from '../capabilities.js';
import type { JsonValue, SyncedTemplateInput, Template, TemplateInput } from '../../../ports/store.js';
import type { SqlRow, SqlRunner, SqlSession } from '../sql-executor.js';
import { int, intOrNull, json, textOrNull, toJson } from './values.js';

function toTemplate(caps: Capabilities, row: SqlRow): Template {
  return {
    id: int(row['id']),
    name: String(row['name']),
    language: String(row['language']),
    category: String(row['category']) as Category,
    status: String(row['status']) as TemplateStatus,
    quality: textOrNull(row['quality']),
    pausedUntil: intOrNull(row['paused_until']),
    updatedAt: int(row['updated_at']),
    metaId: textOrNull(row['meta_id']),
    subCategory: textOrNull(row['sub_category']),
    parameterFormat: textOrNull(row['parameter_format']) as ParameterFormat | null,
    components: row['components'] === null || row['components'] === undefined ? null : json<JsonValue[]>(caps, row['components']),
    sendTtlSeconds: intOrNull(row['send_ttl_seconds']),
    syncedAt: intOrNull(row['synced_at']),
  };
}

const UPSERT_TEMPLATE = `INSERT INTO templates (name, language, category, status, quality, paused_until, updated_at)
VALUES ($1, $2, $3, $4, $5, $6, $7)
ON CONFLICT (name, language) DO UPDATE SET category = excluded.category, status = excluded.status,
  quality = excluded.quality, paused_until = excluded.paused_until, updated_at = excluded.updated_at
RETURNING id`;

export function upsertTemplates(db: SqlSession, templates: readonly TemplateInput[], now: number): Promise<number[]> {
  return db.transaction('upsertTemplates', async (tx) => {
    const ids: number[] = [];
    for (const t of templates) {
      const rows = await tx.query(UPSERT_TEMPLATE, [t.name, t.language, t.category, t.status, t.quality, t.pausedUntil, now]);
      ids.push(int(rows[0]?.['id']));
    }
    return ids;
  });
}

const UPSERT_SYNCED = `INSERT INTO templates (name, language, category, status, quality, paused_until, updated_at,
  meta_id, sub_category, parameter_format, components, send_ttl_seconds, synced_at)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $7)
ON CONFLICT (name, language) DO UPDATE SET category = excluded.category, status = excluded.status,
  quality = excluded.quality, paused_until = excluded.paused_until, updated_at = excluded.updated_at,
  meta_id = excluded.meta_id, sub_category = excluded.sub_category, parameter_format = excluded.parameter_format,
  components = excluded.components, send_ttl_seconds = excluded.send_ttl_seconds, synced_at = excluded.synced_at
RETURNING id`;

export function upsertSyncedTemplates(db: SqlSession, templates: readonly SyncedTemplateInput[], now: number): Promise<number[]> {
  return db.transaction('upsertSyncedTemplates', async (tx) => {
    const ids: number[] = [];
    for (const t of templates) {
      const rows = await tx.query(UPSERT_SYNCED, [
        t.name,
        t.language,
        t.category,
        t.status,
        t.quality,
        t.pausedUntil,
        now,
        t.metaId,
        t.subCategory,
        t.parameterFormat,
        toJson(t.components),
        t.sendTtlSeconds ?? null,
      ]);
      ids.push(int(rows[0]?.['id']));
    }
    return ids;
  });
}

export async function getTemplate(db: SqlRunner, name: string, language: string): Promise<Template | null> {
  const [row] = await db.query('SELECT * FROM templates WHERE name = $1 AND language = $2', [name, language]);
  return row ? toTemplate(db.caps, row) : null;
}

export async function getTemplateById(db: SqlRunner, id: number): Promise<Template | null> {
  const [row] = await db.query('SELECT * FROM templates WHERE id = $1', [id]);
  return row ? toTemplate(db.caps, row) : null;
}

export async function listTemplates(db: SqlRunner): Promise<Template[]> {
  return (await db.query('SELECT * FROM templates ORDER BY name, language')).map((row) => toTemplate(db.caps, row));
}
