import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ERROR_CATALOGUE, codeLabel, findErrorsByText, lookupError } from './index.js';

const pairs = ERROR_CATALOGUE.flatMap((entry) => entry.messages.map((message) => ({ entry, message })));

const separators = fc.constantFrom(' ', '  ', '\t', '\n', ', ', ' - ', '. ', '; ', ': ', ' / ', '!  ');
const edges = fc.constantFrom('', '.', '...', '!', '"', '“', '(', ' ', '\n', '- ');

/** The same words, re-cased character by character and joined and framed with other punctuation. */
const repunctuated = (message: string) =>
  fc
    .tuple(
      fc.array(fc.boolean(), { minLength: message.length, maxLength: message.length }),
      fc.array(separators, { minLength: 64, maxLength: 64 }),
      edges,
      edges,
    )
    .map(([upper, seps, before, after]) => {
      const recased = [...message].map((ch, i) => (upper[i] ? ch.toUpperCase() : ch.toLowerCase())).join('');
      const words = recased
        .replace(/[.,;:!]+(\s|$)/g, ' ')
        .trim()
        .split(/\s+/);
      const joined = words.map((word, i) => (i === 0 ? word : `${seps[i % seps.length] ?? ' '}${word}`)).join('');
      return `${before}${joined.replace(/[’]/g, "'")}${after}`;
    });

describe('lookup properties', () => {
  it('never throws, whatever the input', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (text) => {
        const result = lookupError(text);
        expect(Array.isArray(result.matches)).toBe(true);
        for (const match of result.matches) expect(match.score).toBeGreaterThan(0);
      }),
      { numRuns: 500 },
    );
  });

  it("any entry's message, re-cased and re-punctuated, finds that entry", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...pairs).chain(({ entry, message }) => repunctuated(message).map((text) => ({ entry, text }))),
        ({ entry, text }) => {
          const found = findErrorsByText(text);
          expect(found, `${codeLabel(entry)} from ${JSON.stringify(text)}`).toContain(entry);
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('any whole word-run of a message, pasted alone, still finds the entry', () => {
    const longPairs = pairs.filter(({ message }) => message.split(/\s+/).length >= 4);
    fc.assert(
      fc.property(
        fc.constantFrom(...longPairs).chain(({ entry, message }) => {
          const words = message.split(/\s+/);
          return fc
            .tuple(fc.nat(words.length - 3), fc.integer({ min: 3, max: words.length }))
            .map(([start, length]) => ({ entry, text: words.slice(start, start + length).join(' ') }));
        }),
        ({ entry, text }) => {
          expect(findErrorsByText(text), `${codeLabel(entry)} from ${JSON.stringify(text)}`).toContain(entry);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('a numeric query is a code lookup and returns at most that one entry', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 9_999_999 }), (code) => {
        const result = lookupError(String(code));
        expect(result.by).toBe('code');
        expect(result.matches.length).toBeLessThanOrEqual(1);
        for (const match of result.matches) expect(match.kind).toBe('code');
      }),
    );
  });
});
