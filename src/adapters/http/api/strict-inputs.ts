import { z } from 'zod';

/**
 * The route's query, params or body schema with unknown keys refused at its top level: a
 * misspelt or unsupported parameter (`?phone=`) is a 400 naming it, never silently ignored.
 * Schemas that are not objects (or an optional object) are returned as they are.
 */
export function strictTop<S extends z.ZodType>(schema: S): S {
  if (schema instanceof z.ZodObject) return schema.strict() as unknown as S;
  if (schema instanceof z.ZodOptional && schema.unwrap() instanceof z.ZodObject)
    return (schema.unwrap() as z.ZodObject).strict().optional() as unknown as S;
  return schema;
}

/** A route that declares no query still refuses every query parameter. */
export const NO_QUERY = z.strictObject({});

/** The keys an object schema accepts at its top level, for the sentence that refuses an unknown one. */
export function knownKeys(schema: z.ZodType): string[] {
  if (schema instanceof z.ZodObject) return Object.keys(schema.shape);
  if (schema instanceof z.ZodOptional) return knownKeys(schema.unwrap() as z.ZodType);
  return [];
}
