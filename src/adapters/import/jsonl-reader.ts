import type { SourceRow } from '../../app/contact-source.js';
import type { JsonValue } from '../../ports/store.js';

/** Rows of a JSON Lines file: one object per line; blank lines are skipped. */
export async function* readJsonlRows(lines: AsyncIterable<string>): AsyncGenerator<SourceRow> {
  let line = 0;
  for await (const raw of lines) {
    line += 1;
    const text = line === 1 ? raw.replace(/^\uFEFF/, '') : raw;
    if (text.trim() === '') continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      // The parser's message can quote the line, phone number included: keep only the position.
      const at = error instanceof Error ? /position (\d+)/.exec(error.message)?.[1] : undefined;
      yield { kind: 'unreadable', line, reason: `not valid JSON${at === undefined ? '' : ` (at character ${Number(at) + 1})`}`, raw: text };
      continue;
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      yield {
        kind: 'unreadable',
        line,
        reason: `must be a JSON object, got ${Array.isArray(parsed) ? 'an array' : parsed === null ? 'null' : `a ${typeof parsed}`}`,
        raw: text,
      };
      continue;
    }
    yield { kind: 'row', line, values: new Map(Object.entries(parsed as Record<string, JsonValue>)), raw: text };
  }
}
