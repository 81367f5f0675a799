/**
 * The field names of a Graph `fields=` parameter, in the order asked, each once: top-level names
 * only, a sub-selection such as `health_status{can_send_message}` read as the whole field. Null
 * when the parameter is absent or empty (the node's default fields).
 */
export function requestedFields(param: string | null): string[] | null {
  if (param === null) return null;
  const names: string[] = [];
  let depth = 0;
  let current = '';
  const push = (): void => {
    const name = current.trim();
    if (name !== '' && !names.includes(name)) names.push(name);
    current = '';
  };
  for (const ch of param) {
    if (ch === '{') depth++;
    else if (ch === '}') depth = Math.max(0, depth - 1);
    else if (depth === 0 && ch === ',') push();
    else if (depth === 0) current += ch;
  }
  push();
  return names.length === 0 ? null : names;
}

/** The major number of a path version such as `v24.0`. */
export function majorVersion(version: string): number {
  return Number(/^v(\d+)\./.exec(version)?.[1] ?? 0);
}
