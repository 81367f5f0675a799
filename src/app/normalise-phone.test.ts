import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { maskPhone, normalisePhone } from './normalise-phone.js';

describe('normalisePhone', () => {
  it('normalises common international formats to E.164', () => {
    for (const text of ['+44 7911 123456', '+44 (0) 7911 123456', '+447911123456', '0044 7911 123456', ' +44-7911-123456 ']) {
      expect(normalisePhone(text, null)).toEqual({ ok: true, e164: '+447911123456' });
    }
    expect(normalisePhone('+1 (201) 555-0123', null)).toEqual({ ok: true, e164: '+12015550123' });
  });

  it('reads national numbers in the default country', () => {
    expect(normalisePhone('07911 123456', 'GB')).toEqual({ ok: true, e164: '+447911123456' });
    expect(normalisePhone('(201) 555-0123', 'US')).toEqual({ ok: true, e164: '+12015550123' });
  });

  it('reads digits without + as an international number when they form a valid one', () => {
    expect(normalisePhone('6283660174684', null)).toEqual({ ok: true, e164: '+6283660174684' });
    expect(normalisePhone('44 7911 123456', null)).toEqual({ ok: true, e164: '+447911123456' });
    // A default country is for national numbers: it does not turn an international one into a wrong national one.
    expect(normalisePhone('6283660174684', 'US')).toEqual({ ok: true, e164: '+6283660174684' });
    expect(normalisePhone('4915123456789', 'DE')).toEqual({ ok: true, e164: '+4915123456789' });
    expect(normalisePhone('12015550123', 'US')).toEqual({ ok: true, e164: '+12015550123' });
    // National numbers still read in the default country, with or without their trunk prefix.
    expect(normalisePhone('015123456789', 'DE')).toEqual({ ok: true, e164: '+4915123456789' });
    expect(normalisePhone('9876543210', 'IN')).toEqual({ ok: true, e164: '+919876543210' });
  });

  it('refuses digits that are both a valid international number and a valid national one, naming both readings masked', () => {
    const r = normalisePhone('2015550123', 'US'); // +20 15550123 (Egypt) or +1 201 555 0123
    expect(r).toEqual({
      ok: false,
      reason: expect.stringMatching(/^\+20•+123 or \+1•+123 is ambiguous: .*valid US number; write it with \+/),
    });
    expect(JSON.stringify(r)).not.toMatch(/2015550123|15550123/);
  });

  it('says why a number is refused', () => {
    const reason = (text: string, country: 'GB' | null = null) => {
      const r = normalisePhone(text, country);
      return r.ok ? 'accepted' : r.reason;
    };
    expect(reason('')).toBe('missing phone number');
    expect(reason('n/a')).toBe('not a phone number (it has no digits)');
    expect(reason('07911 123456')).toMatch(/has no country code: .*--default-country/);
    expect(reason('+999 123 456')).toMatch(/starts with an unknown country code/);
    expect(reason('+44123')).toBe('+44••• is too short for +44');
    expect(reason('+4479111234567890')).toMatch(/is too long for \+44$/);
    expect(reason('+44 7700 900123')).toBe('+44•••••••123 is not a valid number for +44');
    expect(reason('0791112', 'GB')).toBe('+44••••112 is not a valid number for GB (+44)');
  });
});

describe('maskPhone', () => {
  it('keeps the country code and the last three digits', () => {
    expect(maskPhone('+447911123456')).toBe('+44•••••••456');
    expect(maskPhone('+1 201 555 0123')).toBe('+1•••••••123');
    expect(maskPhone('07911 123456')).toBe('••••••••456');
  });

  it('hides short numbers entirely', () => {
    expect(maskPhone('+44123')).toBe('+44•••');
    expect(maskPhone('12345')).toBe('•••••');
  });

  it('never shows more than three digits after the country code, whatever the input', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('+', '0', '1', '4', '7', '9', ' ', '-', '(', ')') }), (text) => {
        const masked = maskPhone(text);
        const shown = masked.replace(/\D/g, '');
        expect(shown.length).toBeLessThanOrEqual(6); // up to 3 country-code digits + 3
        if (text.replace(/\D/g, '').length >= 7) expect(masked).toMatch(/•/);
      }),
    );
  });
});
