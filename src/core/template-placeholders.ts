/** `{{1}}` or `{{first_name}}`, with the spaces Meta tolerates inside the braces. */
const PLACEHOLDER = /\{\{\s*([^{}\s]+)\s*\}\}/g;
const POSITIONAL = /^[1-9]\d*$/;
const NAMED = /^[a-z_][a-z0-9_]*$/;

/** Each placeholder's name (`1`, `first_name`) once, in the order the text first uses it. */
export function extractPlaceholders(text: string): string[] {
  const seen: string[] = [];
  for (const match of text.matchAll(PLACEHOLDER)) {
    const name = match[1] as string;
    if (!seen.includes(name)) seen.push(name);
  }
  return seen;
}

/**
 * Checks placeholders against the template's parameter format and returns them in send order:
 * positional ones are `1..n` and go by number; named ones go by name, so their order is the text's.
 * A reason when they do not fit the format.
 */
export function orderPlaceholders(
  names: readonly string[],
  format: 'positional' | 'named',
): { ok: true; placeholders: string[] } | { ok: false; reason: string } {
  if (format === 'named') {
    const bad = names.find((n) => !NAMED.test(n));
    if (bad !== undefined) return { ok: false, reason: `{{${bad}}} is not a named parameter (lower-case letters, digits, underscores)` };
    return { ok: true, placeholders: [...names] };
  }
  const bad = names.find((n) => !POSITIONAL.test(n));
  if (bad !== undefined) return { ok: false, reason: `{{${bad}}} is not a positional parameter ({{1}}, {{2}}, …)` };
  const sorted = [...names].sort((a, b) => Number(a) - Number(b));
  const gap = sorted.findIndex((n, i) => Number(n) !== i + 1);
  if (gap !== -1) return { ok: false, reason: `positional parameters must run {{1}}..{{${sorted.length}}}, found {{${sorted[gap]}}}` };
  return { ok: true, placeholders: sorted };
}
