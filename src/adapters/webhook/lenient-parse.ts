import { z } from 'zod';
import type { WebhookProblem } from '../../ports/webhook-items.js';
import { formatPath, type Path } from './webhook-path.js';

type Repaired = { ok: true; value: unknown } | { ok: false };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function unwrap(schema: z.ZodType): z.ZodType {
  let inner: z.ZodType = schema;
  while (inner instanceof z.ZodOptional || inner instanceof z.ZodNullable) inner = inner.unwrap() as z.ZodType;
  return inner;
}

function valueAt(value: unknown, keys: readonly PropertyKey[]): unknown {
  let current = value;
  for (const key of keys) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

function report(issues: readonly z.core.$ZodIssue[], value: unknown, path: Path, problems: WebhookProblem[]): void {
  for (const issue of issues) {
    // Zod words an absent field as a type mismatch; say plainly that it is missing.
    const missing = valueAt(value, issue.path) === undefined;
    problems.push({ path: formatPath([...path, ...issue.path]), message: missing ? 'missing' : issue.message });
  }
}

/**
 * Returns the input with every invalid piece cut out, as small as possible: a bad array element is
 * removed, a bad optional field is dropped, and only a bad required field fails its whole object.
 * Each cut is reported at its exact path, so one broken status never costs its siblings.
 */
function repair(schema: z.ZodType, value: unknown, path: Path, problems: WebhookProblem[]): Repaired {
  const result = schema.safeParse(value);
  if (result.success) return { ok: true, value };
  const base = unwrap(schema);
  if (base instanceof z.ZodObject && isRecord(value)) return repairObject(base, value, result.error.issues, path, problems);
  if (base instanceof z.ZodArray && Array.isArray(value)) {
    const kept: unknown[] = [];
    value.forEach((element, index) => {
      const fixed = repair(base.element as z.ZodType, element, [...path, index], problems);
      if (fixed.ok) kept.push(fixed.value);
    });
    return { ok: true, value: kept };
  }
  report(result.error.issues, value, path, problems);
  return { ok: false };
}

function repairObject(
  schema: z.ZodObject,
  value: Record<string, unknown>,
  issues: readonly z.core.$ZodIssue[],
  path: Path,
  problems: WebhookProblem[],
): Repaired {
  const copy: Record<string, unknown> = { ...value };
  const badKeys = new Set<string>();
  for (const issue of issues) if (typeof issue.path[0] === 'string') badKeys.add(issue.path[0]);
  let usable = true;
  for (const key of badKeys) {
    const field = schema.shape[key] as z.ZodType | undefined;
    if (field === undefined) continue;
    const fixed = repair(field, copy[key], [...path, key], problems);
    if (fixed.ok) copy[key] = fixed.value;
    else if (field.safeParse(undefined).success) delete copy[key];
    else usable = false;
  }
  if (!usable) return { ok: false };
  // Object-wide checks (e.g. "wa_id or user_id") can only be judged once the fields are fixed.
  const again = schema.safeParse(copy);
  if (again.success) return { ok: true, value: copy };
  report(again.error.issues, copy, path, problems);
  return { ok: false };
}

/**
 * Parses `value` with `schema`, keeping whatever is valid. Returns undefined only when a required
 * part is missing or wrong; every discarded piece is added to `problems` with its path.
 */
export function parseLenient<S extends z.ZodType>(
  schema: S,
  value: unknown,
  path: Path,
  problems: WebhookProblem[],
): z.output<S> | undefined {
  // Nearly every payload is valid: one parse, and the repair walk only for the rest.
  const whole = schema.safeParse(value);
  if (whole.success) return whole.data;
  const fixed = repair(schema, value, path, problems);
  if (!fixed.ok) return undefined;
  const result = schema.safeParse(fixed.value);
  if (result.success) return result.data;
  report(result.error.issues, value, path, problems);
  return undefined;
}
