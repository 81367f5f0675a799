import { z } from 'zod';
import { CATEGORIES } from '../core/category.js';
import type { SegmentDefinition } from '../core/segment.js';

/**
 * How large a segment may be. Each tag and attribute becomes one condition of the SQL that selects
 * the audience, and SQLite refuses expressions nested more than 1,000 deep ("Expression tree is too
 * large"), so a segment is bounded where it enters, not when a campaign starts. At these limits
 * (about 360 conditions) it starts on both backends; tags and attribute names longer than these
 * are not labels anyone selects by. Segments are flat: a value is a string, number or boolean.
 */
export const SEGMENT_LIMITS = {
  /** Tags in each of tagsAll, tagsAny and tagsNone. */
  tagsPerList: 100,
  tagLength: 200,
  attributes: 50,
  attributeNameLength: 200,
  attributeValueLength: 1000,
} as const;

const L = SEGMENT_LIMITS;
const count = (input: unknown): number => (Array.isArray(input) ? input.length : 0);

const tag = z
  .string()
  .min(1)
  .max(L.tagLength, { error: (issue) => `a tag may have at most ${L.tagLength} characters (this one has ${String(issue.input).length})` });
const tagList = z.array(tag).max(L.tagsPerList, { error: (issue) => `at most ${L.tagsPerList} tags (got ${count(issue.input)})` });
const attributeValue = z.union([
  z.string().max(L.attributeValueLength, {
    error: (issue) =>
      `an attribute value may have at most ${L.attributeValueLength} characters (this one has ${String(issue.input).length})`,
  }),
  z.number(),
  z.boolean(),
]);
const attributes = z.record(z.string(), attributeValue).superRefine((a, ctx) => {
  const names = Object.keys(a);
  if (names.length > L.attributes) ctx.addIssue({ code: 'custom', message: `at most ${L.attributes} attributes (got ${names.length})` });
  const long = names.find((name) => name.length > L.attributeNameLength);
  if (long !== undefined)
    ctx.addIssue({
      code: 'custom',
      message: `an attribute name may have at most ${L.attributeNameLength} characters (one has ${long.length})`,
    });
});
/** A list of distinct choices: repeating one adds nothing but SQL. */
const choices = <const T extends readonly [string, ...string[]]>(values: T) =>
  z
    .array(z.enum(values))
    .max(values.length, { error: (issue) => `at most ${values.length} values, each once (got ${count(issue.input)})` });

/** A segment as API bodies and the CLI give it; unknown keys are refused so a typo is not a no-op. */
export const segmentSchema = z.strictObject({
  tagsAll: tagList.optional(),
  tagsAny: tagList.optional(),
  tagsNone: tagList.optional(),
  attributes: attributes.optional(),
  consent: choices(CATEGORIES).optional(),
  engagedWithinDays: z.number().int().positive().max(3650).optional(),
  exclude: choices(['cooling_off', 'held', 'stopped', 'unreachable']).optional(),
}) satisfies z.ZodType<SegmentDefinition>;

export function parseSegment(value: unknown, where = 'segment'): SegmentDefinition {
  const parsed = segmentSchema.safeParse(value);
  if (!parsed.success) {
    throw new Error(parsed.error.issues.map((i) => `${[where, ...i.path].join('.')}: ${i.message}`).join('; '));
  }
  return parsed.data;
}
