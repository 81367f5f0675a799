import type { JsonValue } from '../ports/store.js';

/**
 * Checks every way contacts come in shares (an import row, an API body), so each refuses the same
 * input with the same reason.
 */

/** Why text with a NUL is refused: the store would keep it only as U+FFFD, and the sender can fix its input, unlike a webhook. */
export const NUL_REASON = 'contains a NUL character (\\u0000): remove it and import or send the row again';

/** True when a value, or any key or value inside it, holds a NUL character. */
export function hasNul(value: JsonValue): boolean {
  if (typeof value === 'string') return value.includes('\0');
  if (Array.isArray(value)) return value.some(hasNul);
  if (value !== null && typeof value === 'object') return Object.entries(value).some(([k, v]) => k.includes('\0') || hasNul(v));
  return false;
}

/** Tags as stored: trimmed, empty ones dropped, each once, in the order first given. */
export function normaliseTags(tags: readonly string[]): string[] {
  return [...new Set(tags.map((t) => t.trim()).filter((t) => t !== ''))];
}

/** A value's kind, for a reason: "a list", "an object", "a number". */
export function describeValue(value: JsonValue): string {
  return Array.isArray(value) ? 'a list' : value === null ? 'null' : typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}
