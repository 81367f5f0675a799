import { describe, expect, it } from 'vitest';
import type { JsonValue } from '../ports/store.js';
import { checkContactRow } from './contact-row.js';

const row = (values: Record<string, JsonValue>) => checkContactRow(new Map(Object.entries(values)), null);

describe('checkContactRow', () => {
  it('maps the known columns and keeps the others as attributes', () => {
    expect(
      row({
        Phone: '+447911123456',
        NAME: ' Priya ',
        consent_marketing: 'Yes',
        consent_utility: 'n',
        tags: ' vip ; uk;;vip',
        city: ' London ',
        empty: '',
      }),
    ).toEqual({
      ok: true,
      record: {
        phoneE164: '+447911123456',
        name: 'Priya',
        consent: { marketing: true, utility: false },
        tags: ['vip', 'uk'],
        attributes: { city: 'London' },
      },
    });
  });

  it('accepts the usual consent spellings and leaves an empty one unstated', () => {
    const consent = (value: JsonValue) => {
      const r = row({ phone: '+447911123456', consent_marketing: value });
      return r.ok ? r.record.consent.marketing : 'refused';
    };
    for (const yes of ['yes', 'YES', 'y', 'true', 'True', '1', true, 1]) expect(consent(yes)).toBe(true);
    for (const no of ['no', 'N', 'false', '0', false, 0]) expect(consent(no)).toBe(false);
    for (const unstated of ['', '  ', null]) expect(consent(unstated)).toBeUndefined();
    for (const bad of ['maybe', 'si', 2, ['yes']]) expect(consent(bad)).toBe('refused');
  });

  it('lists every problem of a row, naming the column and value, with the phone masked', () => {
    expect(row({ phone: '+447911123456', consent_marketing: 'maybe', consent_utility: 'later', tags: 5 })).toEqual({
      ok: false,
      phone: '+44•••••••456',
      errors: [
        { field: 'consent_marketing', reason: expect.stringMatching(/^"maybe" is not a consent value/) },
        { field: 'consent_utility', reason: expect.stringMatching(/^"later" is not a consent value/) },
        { field: 'tags', reason: 'must be text separated by ";" or a list of strings, got a number' },
      ],
    });
    expect(row({ name: 'Nobody' })).toEqual({ ok: false, phone: null, errors: [{ field: 'phone', reason: 'missing phone number' }] });
  });

  it('keeps a column named __proto__ as a plain attribute', () => {
    const r = row({ phone: '+447911123456', ['__proto__']: 'x' });
    expect(r.ok && Object.getPrototypeOf(r.record.attributes)).toBe(Object.prototype);
    expect(r.ok && Object.keys(r.record.attributes)).toEqual(['__proto__']);
  });
});
