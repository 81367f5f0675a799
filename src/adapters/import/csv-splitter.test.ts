import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CsvSplitter, MAX_RECORD_LINES, type CsvRecord } from './csv-splitter.js';

function split(text: string, delimiter = ','): CsvRecord[] {
  const splitter = new CsvSplitter(delimiter);
  const out: CsvRecord[] = [];
  text.split(/\r?\n/).forEach((line, i) => out.push(...splitter.push(line, i + 1)));
  return [...out, ...splitter.end()];
}

const encode = (field: string) => (/[",\n]/.test(field) || field.startsWith(' ') ? `"${field.replace(/"/g, '""')}"` : field);

describe('CsvSplitter', () => {
  it('splits plain lines, skipping blank ones', () => {
    expect(split('a,b,c\n\n1,,3\n')).toEqual([
      { line: 1, fields: ['a', 'b', 'c'], raw: 'a,b,c' },
      { line: 3, fields: ['1', '', '3'], raw: '1,,3' },
    ]);
  });

  it('reads quoted fields with commas, doubled quotes, empty values and line breaks', () => {
    expect(split('"a,b","say ""hi""",""\n"x\n\ny",z,\nlast')).toEqual([
      { line: 1, fields: ['a,b', 'say "hi"', ''], raw: '"a,b","say ""hi""",""' },
      { line: 2, fields: ['x\n\ny', 'z', ''], raw: '"x\n\ny",z,' },
      { line: 5, fields: ['last'], raw: 'last' },
    ]);
  });

  it('keeps a quote inside an unquoted field as text', () => {
    expect(split('5" screen,ok')).toEqual([{ line: 1, fields: ['5" screen', 'ok'], raw: '5" screen,ok' }]);
  });

  it('refuses text after a closing quote, and goes on with the next line', () => {
    expect(split('"a"b,c\nd,e')).toEqual([
      { line: 1, error: 'unexpected text after the closing quote of field 1', raw: '"a"b,c' },
      { line: 2, fields: ['d', 'e'], raw: 'd,e' },
    ]);
  });

  it('reports a quote never closed at its line and reads the lines after it again', () => {
    expect(split('a,"open\nb,c\nd,e')).toEqual([
      { line: 1, error: 'a quoted field opened on this line is never closed', raw: 'a,"open' },
      { line: 2, fields: ['b', 'c'], raw: 'b,c' },
      { line: 3, fields: ['d', 'e'], raw: 'd,e' },
    ]);
  });

  it('gives up on a quoted field that runs past the line limit, without waiting for the end of input', () => {
    const splitter = new CsvSplitter();
    const early: CsvRecord[] = [...splitter.push('x,"stray', 1)];
    for (let line = 2; line <= MAX_RECORD_LINES + 1; line++) early.push(...splitter.push(`row${line},v`, line));
    expect(early[0]).toEqual({ line: 1, error: expect.stringMatching(/not closed within/), raw: 'x,"stray' });
    expect(early).toHaveLength(MAX_RECORD_LINES + 1);
    expect(early.at(-1)).toEqual({
      line: MAX_RECORD_LINES + 1,
      fields: [`row${MAX_RECORD_LINES + 1}`, 'v'],
      raw: `row${MAX_RECORD_LINES + 1},v`,
    });
    expect(splitter.end()).toEqual([]);
  });

  it('returns any records, encoded any way, with the line each starts on', () => {
    const field = fc.string({ unit: fc.constantFrom('a', 'b', ',', '"', '\n', ' ', 'é') });
    const record = fc.array(field, { minLength: 1, maxLength: 5 });
    fc.assert(
      fc.property(fc.array(record, { maxLength: 20 }), (records) => {
        // A lone empty field would be a blank line, which is no record: quote it.
        const encoded = records.map((r) => r.map((f) => (f === '' && r.length === 1 ? '""' : encode(f))).join(','));
        const starts: number[] = [];
        let line = 1;
        for (const text of encoded) {
          starts.push(line);
          line += text.split('\n').length;
        }
        expect(split(encoded.join('\n'))).toEqual(records.map((fields, i) => ({ line: starts[i]!, fields, raw: encoded[i] })));
      }),
    );
  });

  it('splits on another delimiter, keeping commas as text', () => {
    expect(split('phone;name;note\n+447911123456;"Smith; J";a,b', ';')).toEqual([
      { line: 1, fields: ['phone', 'name', 'note'], raw: 'phone;name;note' },
      { line: 2, fields: ['+447911123456', 'Smith; J', 'a,b'], raw: '+447911123456;"Smith; J";a,b' },
    ]);
    expect(split('a\t"b\tc"\td', '\t')).toEqual([{ line: 1, fields: ['a', 'b\tc', 'd'], raw: 'a\t"b\tc"\td' }]);
  });

  it('refuses a delimiter that cannot separate fields', () => {
    for (const bad of ['', ';;', '"', '\n']) expect(() => new CsvSplitter(bad)).toThrow(/one character other than a quote or a line break/);
  });
});
