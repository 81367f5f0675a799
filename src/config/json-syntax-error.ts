/** Where a JSON text first breaks the grammar: 1-based line and column, and what was expected there. */
export interface JsonSyntaxError {
  line: number;
  column: number;
  problem: string;
}

class Stop {
  constructor(
    readonly at: number,
    readonly problem: string,
  ) {}
}

const WHITESPACE = new Set([' ', '\t', '\n', '\r']);
const ESCAPES = new Set(['"', '\\', '/', 'b', 'f', 'n', 'r', 't']);
const NUMBER = /-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/y;

/** A character outside strings may be shown; one inside a string is never (it may be part of a secret). */
function shown(c: string | undefined): string {
  if (c === undefined) return 'the end of the file';
  const code = c.codePointAt(0) ?? 0;
  return code > 0x20 && code < 0x7f ? `'${c}'` : `character U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
}

/**
 * Finds the first syntax error of a JSON text, or null when it is valid JSON. `JSON.parse` in
 * Node 20 says neither where nor what (and quotes the text, which may hold secrets), so the
 * grammar of RFC 8259 is walked here once more, only to point at the spot.
 */
export function locateJsonSyntaxError(text: string): JsonSyntaxError | null {
  let i = 0;
  const fail = (problem: string, at = i): never => {
    throw new Stop(at, problem);
  };
  const skipWhitespace = () => {
    while (i < text.length && WHITESPACE.has(text.charAt(i))) i++;
  };
  const expect = (c: string, what: string) => {
    skipWhitespace();
    if (text[i] !== c) fail(`expected ${what}, found ${shown(text[i])}`);
    i++;
  };

  const string = () => {
    i++; // the opening quote
    for (;;) {
      const c = text[i];
      if (c === undefined) fail('a string is not closed (a " is missing)');
      else if (c === '"') return void i++;
      else if (c === '\\') {
        const e = text[i + 1];
        if (e === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) fail('a \\u escape in a string needs four hex digits');
          i += 6;
        } else if (e !== undefined && ESCAPES.has(e)) i += 2;
        else fail('a string holds an unknown escape (a \\ must be doubled)');
      } else if (c < ' ') fail('a string holds a control character (a line break inside a string must be written \\n)');
      else i++;
    }
  };

  const number = () => {
    NUMBER.lastIndex = i;
    const m = NUMBER.exec(text);
    if (m === null) fail('a number is malformed');
    else i += m[0].length;
  };

  const value = (): void => {
    skipWhitespace();
    const c = text[i];
    if (c === '{') return object();
    if (c === '[') return array();
    if (c === '"') return string();
    if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) return number();
    for (const literal of ['true', 'false', 'null']) {
      if (text.startsWith(literal, i)) {
        i += literal.length;
        return;
      }
    }
    fail(`expected a value, found ${shown(c)}`);
  };

  const object = () => {
    i++;
    skipWhitespace();
    if (text[i] === '}') return void i++;
    for (;;) {
      skipWhitespace();
      if (text[i] !== '"') fail(`expected a property name in double quotes, found ${shown(text[i])}`);
      string();
      expect(':', "':' after the property name");
      value();
      skipWhitespace();
      if (text[i] === '}') return void i++;
      expect(',', "',' or '}' after the property");
    }
  };

  const array = () => {
    i++;
    skipWhitespace();
    if (text[i] === ']') return void i++;
    for (;;) {
      value();
      skipWhitespace();
      if (text[i] === ']') return void i++;
      expect(',', "',' or ']' after the element");
    }
  };

  try {
    value();
    skipWhitespace();
    if (i < text.length) fail(`expected the end of the file after the value, found ${shown(text[i])}`);
    return null;
  } catch (error) {
    if (!(error instanceof Stop)) return null; // nesting too deep to walk: JSON.parse's own verdict stands alone
    const before = text.slice(0, error.at);
    const lastBreak = before.lastIndexOf('\n');
    return { line: before.split('\n').length, column: error.at - lastBreak, problem: error.problem };
  }
}
