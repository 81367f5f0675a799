import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { locateJsonSyntaxError } from './json-syntax-error.js';

const parses = (text: string): boolean => {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
};

describe('locateJsonSyntaxError', () => {
  it('points at the line and column of the first error, saying what was expected', () => {
    expect(locateJsonSyntaxError('{\n  "accounts": [\n    { "name": "eu" }\n    { "name": "us" }\n  ]\n}')).toEqual({
      line: 4,
      column: 5,
      problem: "expected ',' or ']' after the element, found '{'",
    });
    expect(locateJsonSyntaxError('{ "a": 1, }')).toEqual({
      line: 1,
      column: 11,
      problem: "expected a property name in double quotes, found '}'",
    });
    expect(locateJsonSyntaxError('{\r\n  "a" 1\r\n}')).toEqual({
      line: 2,
      column: 7,
      problem: "expected ':' after the property name, found '1'",
    });
    expect(locateJsonSyntaxError('')).toEqual({ line: 1, column: 1, problem: 'expected a value, found the end of the file' });
    expect(locateJsonSyntaxError('{"a": [1, 2')).toMatchObject({
      line: 1,
      column: 12,
      problem: "expected ',' or ']' after the element, found the end of the file",
    });
    expect(locateJsonSyntaxError('{} x')).toMatchObject({ column: 4, problem: "expected the end of the file after the value, found 'x'" });
    expect(locateJsonSyntaxError('[01]')).toMatchObject({ column: 3 });
    expect(locateJsonSyntaxError('// note\n{}')).toMatchObject({ line: 1, column: 1, problem: "expected a value, found '/'" });
  });

  it('never quotes what is inside a string', () => {
    const broken = locateJsonSyntaxError('{"accessToken": "EAAG\tsecret"}');
    expect(broken).toMatchObject({ line: 1, column: 22 });
    expect(broken?.problem).not.toContain('secret');
    expect(locateJsonSyntaxError('{"a": "EAAG\\qsecret"}')?.problem).toBe('a string holds an unknown escape (a \\ must be doubled)');
    expect(locateJsonSyntaxError('{"a": "EAAGsecret')?.problem).toBe('a string is not closed (a " is missing)');
  });

  it('finds nothing in valid JSON and something in every text JSON.parse refuses', () => {
    fc.assert(
      fc.property(fc.json(), (text) => {
        expect(locateJsonSyntaxError(text)).toBeNull();
      }),
    );
    const damaged = fc
      .tuple(fc.json(), fc.nat(), fc.string({ maxLength: 2 }))
      .map(([text, at, insert]) => text.slice(0, at % (text.length + 1)) + insert + text.slice((at % (text.length + 1)) + 1));
    fc.assert(
      fc.property(fc.oneof(damaged, fc.string()), (text) => {
        expect(locateJsonSyntaxError(text) === null).toBe(parses(text));
      }),
      { numRuns: 2000 },
    );
  });
});
