/** A comma-separated variable (`old, new`), as the app secrets are written during a rotation. */
export function commaList(value: string): string[] {
  return value
    .split(',')
    .map((x) => x.trim())
    .filter((x) => x !== '');
}
