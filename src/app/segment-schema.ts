import { z } from 'zod';
import { CATEGORIES } from '../core/category.js';
import type { SegmentDefinition } from '../core/segment.js';

/** A segment as API bodies and the CLI give it; unknown keys are refused so a typo is not a no-op. */
export const segmentSchema = z.strictObject({
  tagsAll: z.array(z.string().min(1)).optional(),
  tagsAny: z.array(z.string().min(1)).optional(),
  tagsNone: z.array(z.string().min(1)).optional(),
  attributes: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).optional(),
  consent: z.array(z.enum(CATEGORIES)).optional(),
  engagedWithinDays: z.number().int().positive().max(3650).optional(),
  exclude: z.array(z.enum(['cooling_off', 'held', 'stopped', 'unreachable'])).optional(),
}) satisfies z.ZodType<SegmentDefinition>;

export function parseSegment(value: unknown, where = 'segment'): SegmentDefinition {
  const parsed = segmentSchema.safeParse(value);
  if (!parsed.success) {
    throw new Error(parsed.error.issues.map((i) => `${[where, ...i.path].join('.')}: ${i.message}`).join('; '));
  }
  return parsed.data;
}
