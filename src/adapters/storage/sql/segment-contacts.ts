import type { SegmentDefinition } from '../../../core/segment.js';
import type { JsonObject, SegmentContactsPage } from '../../../ports/store.js';
import type { SqlParam, SqlRunner } from '../sql-executor.js';
import { contactPage, PAGE_CONTACTS, segmentSql } from './segment-where.js';
import { int, json, textOrNull } from './values.js';

/** The contacts of one page the segment selects, with what a template's values are read from. */
export async function segmentContacts(
  db: SqlRunner,
  segment: SegmentDefinition,
  now: number,
  afterId: number,
  limit: number,
): Promise<SegmentContactsPage> {
  const { lastId, scanned } = await contactPage(db, afterId, limit);
  if (lastId === null) return { lastContactId: null, scanned: 0, matched: 0, contacts: [] };
  const params: SqlParam[] = [afterId, lastId];
  const match = segmentSql(db.caps, params).match(segment, now);
  const rows = await db.query(`SELECT c.id, c.name, c.attributes ${PAGE_CONTACTS} AND ${match} ORDER BY c.id`, params);
  const contacts = rows.map((row) => ({
    id: int(row['id']),
    name: textOrNull(row['name']),
    attributes: json<JsonObject>(db.caps, row['attributes']),
  }));
  return { lastContactId: lastId, scanned, matched: contacts.length, contacts };
}
