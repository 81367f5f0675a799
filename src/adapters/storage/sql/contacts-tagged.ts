import type { TaggedContactsPage } from '../../../ports/store.js';
import type { SqlParam, SqlRunner } from '../sql-executor.js';
import { toContact } from './contacts.js';
import { contactPage, PAGE_CONTACTS, segmentSql } from './segment-where.js';

/**
 * Contacts holding a tag, by id, through the same tag condition segments use. The window is the next
 * `scan` contacts after `afterId`: the page ends at the `limit`-th match or at the window's end,
 * whichever comes first, so a tag few contacts hold never turns one request into a full scan.
 */
export async function listContactsWithTag(
  db: SqlRunner,
  tag: string,
  afterId: number,
  limit: number,
  scan: number,
): Promise<TaggedContactsPage> {
  const { lastId, scanned } = await contactPage(db, afterId, scan);
  if (lastId === null) return { contacts: [], next: null };
  const params: SqlParam[] = [afterId, lastId];
  const match = segmentSql(db.caps, params).match({ tagsAll: [tag] }, 0);
  params.push(limit + 1);
  const rows = await db.query(`SELECT c.* ${PAGE_CONTACTS} AND ${match} ORDER BY c.id LIMIT $${params.length}`, params);
  const contacts = rows.slice(0, limit).map((row) => toContact(db.caps, row));
  if (rows.length > limit) return { contacts, next: contacts[contacts.length - 1]?.id ?? null };
  // The window was full: contacts after it may hold the tag too.
  return { contacts, next: scanned === scan ? lastId : null };
}
