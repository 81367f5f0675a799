import { describe, expect, it } from 'vitest';
import { storableJson, storableText } from './storable-text.js';

describe('text as both backends can store it', () => {
  it('replaces every NUL in text with U+FFFD and leaves other text alone', () => {
    expect(storableText('a\0b\0')).toBe('a\uFFFDb\uFFFD');
    expect(storableText('plain ✓')).toBe('plain ✓');
  });

  it('replaces escaped NULs in JSON strings, not a backslash followed by u0000 as text', () => {
    const value = { nul: 'x\0y', text: 'a \\u0000 b', both: '\\\0' };
    const stored = storableJson(JSON.stringify(value));
    expect(JSON.parse(stored)).toEqual({ nul: 'x\uFFFDy', text: 'a \\u0000 b', both: '\\\uFFFD' });
    expect(storableJson('{"a":1}')).toBe('{"a":1}');
  });
});
