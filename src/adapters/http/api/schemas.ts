import { z } from 'zod';
import { CATEGORIES } from '../../../core/category.js';
import { iso, type Millis } from '../../../core/time.js';
import type { Contact } from '../../../ports/store.js';

/** Request and response shapes shared by several resources. */

export const idParams = z.object({ id: z.coerce.number().int().positive().describe('numeric id') });

export const pageQuery = z.object({
  limit: z.coerce.number().int().min(1).max(500).default(50).describe('page size, 1-500'),
  after: z
    .string()
    .regex(/^\d{1,15}$/, 'a cursor from a previous page (`next`)')
    .optional()
    .describe('cursor: the `next` value of the previous page'),
});

export const categorySchema = z.enum(CATEGORIES);
export const isoTime = z.string().describe('ISO 8601 time, UTC');

export function page<S extends z.ZodType>(item: S) {
  return z.object({ items: z.array(item), next: z.string().nullable().describe('cursor for the next page; null on the last one') });
}

/** Reads `limit + 1` rows so the cursor is null exactly when there is nothing after this page. */
export async function paginate<T extends { id: number }, R>(
  limit: number,
  after: string | undefined,
  load: (afterId: number, limit: number) => Promise<T[]>,
  map: (row: T) => R,
): Promise<{ items: R[]; next: string | null }> {
  const rows = await load(after === undefined ? 0 : Number(after), limit + 1);
  const items = rows.slice(0, limit);
  const last = items[items.length - 1];
  return { items: items.map(map), next: rows.length > limit && last !== undefined ? String(last.id) : null };
}

export const isoOrNull = (ms: Millis | null): string | null => (ms === null ? null : iso(ms));

export const contactSchema = z.object({
  id: z.number().int(),
  waId: z.string().nullable(),
  bsuid: z.string().nullable(),
  phoneE164: z.string().nullable(),
  name: z.string().nullable(),
  attributes: z.record(z.string(), z.unknown()),
  tags: z.array(z.string()),
  createdAt: isoTime,
  updatedAt: isoTime,
});

export function contactJson(c: Contact): z.output<typeof contactSchema> {
  return {
    id: c.id,
    waId: c.waId,
    bsuid: c.bsuid,
    phoneE164: c.phoneE164,
    name: c.name,
    attributes: c.attributes,
    tags: c.tags,
    createdAt: iso(c.createdAt),
    updatedAt: iso(c.updatedAt),
  };
}

export const decisionSchema = z.object({
  kind: z.enum(['send', 'defer', 'hold', 'skip']),
  reason: z.string(),
  until: isoTime.nullable(),
  explanation: z.string(),
});
