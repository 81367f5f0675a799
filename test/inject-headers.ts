/** Response headers from `inject()` as a socket client sees them: text (inject reports some as numbers). */
export function textHeaders(
  headers: Record<string, string | string[] | number | undefined>,
): Record<string, string | string[] | undefined> {
  return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, typeof v === 'number' ? String(v) : v]));
}
