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

  it('keeps only the country prefix and the last three characters of a business-scoped user id', () => {
    expect(mask('US.13491208655302741918')).toBe('US.•••••••••••••••••918');
    expect(mask('US.ENT.11815799212886844830')).toBe('US.ENT.•••••••••••••••••830');
    expect(mask('US.13491208655302741918')).not.toContain('1349120865530');
  });
});
