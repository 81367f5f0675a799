import type { FastifyInstance } from 'fastify';

/** Newline-delimited JSON: one JSON value a line. */
export const NDJSON_TYPE = 'application/x-ndjson';

/**
 * One line of an NDJSON body: its value, or why it could not be read. A route gets the lines in
 * order, blank lines left out but counted, so each outcome can name the line it came from.
 */
export class NdjsonLine {
  constructor(
    /** 1-based, as an editor counts. */
    readonly line: number,
    readonly value: unknown,
    /** Why the line is not JSON; null when it is. */
    readonly error: string | null,
  ) {}
}

/**
 * Splits an NDJSON body into lines, each parsed on its own, so one bad line is reported with its
 * number instead of refusing the whole body. The reason never quotes the line: it may hold a phone number.
 */
export function parseNdjson(text: string): NdjsonLine[] {
  const lines: NdjsonLine[] = [];
  let number = 0;
  for (const raw of text.split('\n')) {
    number += 1;
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (line.trim() === '') continue;
    try {
      lines.push(new NdjsonLine(number, JSON.parse(line) as unknown, null));
    } catch (error) {
      const at = /at position (\d+)/.exec((error as Error).message)?.[1];
      const where = at === undefined ? '' : ` (at character ${Number(at) + 1})`;
      lines.push(new NdjsonLine(number, undefined, `this line is not valid JSON${where}`));
    }
  }
  return lines;
}

/**
 * Lets the routes of `app` take NDJSON bodies, read as text within the route's body limit. A route
 * that does not list NDJSON in `accepts` answers 415 before looking at the lines.
 */
export function registerNdjsonParser(app: FastifyInstance): void {
  app.addContentTypeParser(NDJSON_TYPE, { parseAs: 'string' }, (_request, body, done) => {
    done(null, parseNdjson(typeof body === 'string' ? body : body.toString('utf8')));
  });
}
