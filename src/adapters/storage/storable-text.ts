// PostgreSQL text cannot hold U+0000 (SQLSTATE 22021), nor jsonb the `\u0000` escape (22P05). Webhook
// text can carry it, and one such message must not stop the inbox: both backends store U+FFFD (the
// replacement character) in its place, so they keep the same text.

/** What a NUL becomes in stored text. */
export const NUL_REPLACEMENT = '\uFFFD';

/** A text value as it can be stored. */
export function storableText(text: string): string {
  return text.includes('\0') ? text.replaceAll('\0', NUL_REPLACEMENT) : text;
}

/** An escaped NUL (`\u0000`, not preceded by another backslash) in JSON text. */
const ESCAPED_NUL = /(?<!\\)((?:\\\\)*)\\u0000/g;

/** JSON text as it can be stored: an escaped NUL in a string becomes U+FFFD. */
export function storableJson(json: string): string {
  return json.includes('\\u0000') ? json.replace(ESCAPED_NUL, `$1${NUL_REPLACEMENT}`) : json;
}
