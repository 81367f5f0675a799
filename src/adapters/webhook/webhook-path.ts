/** A location inside a webhook body, as keys and array indexes from the root. */
export type PathSegment = string | number;
export type Path = readonly PathSegment[];

/** Where a problem sits when it concerns the body as a whole. */
export const ROOT_PATH = '$';

/** `["entry", 0, "changes", 1, "value"]` → `entry[0].changes[1].value`; the empty path is `$`. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else out += out === '' ? String(segment) : `.${String(segment)}`;
  }
  return out === '' ? ROOT_PATH : out;
}
