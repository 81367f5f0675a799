import { describe, expect, it } from 'vitest';
import { mask } from './mask.js';

describe('mask', () => {
  it('keeps the country code and the last three digits of a number, nothing more', () => {
    expect(mask('+447700900123')).toBe('+44•••••••123');
    expect(mask('447700900123')).toBe('44•••••••123');
    expect(mask('+44 7700 900123')).toBe('+44•••••••123');
  });

  it('leaves short values (ids, not numbers) as they are', () => {
    expect(mask('123456')).toBe('123456');
  });
});
