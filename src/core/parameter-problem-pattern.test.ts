import { describe, expect, it } from 'vitest';
import { NAMED_MARKETING } from '../../test/meta-template-examples.js';
import { problemPattern } from './parameter-problem-pattern.js';
import { parseMetaTemplate } from './template-definition.js';
import { renderParameters, type ParameterMapping } from './template-parameters.js';

const parsed = parseMetaTemplate(NAMED_MARKETING);
if (!parsed.ok) throw new Error(parsed.reason);
const { definition, category } = parsed.template;

const MAPPING: ParameterMapping = {
  header: { attribute: 'photo' },
  first_name: { attribute: 'first_name' },
  discount: { value: '15%' },
  end_date: { value: '31 May' },
  'button.0': { attribute: 'slug' },
};

const OK = { photo: 'https://img.example/a.png', first_name: 'Ada', slug: 'spring' };

/** The detail `renderParameters` gives for a recipient with these attributes (merged over good ones). */
function detailFor(attributes: Record<string, unknown>): string {
  const r = renderParameters(definition, category, MAPPING, { name: null, attributes: { ...OK, ...attributes } }, { stopButtons: [] });
  if (r.ok) throw new Error('expected a problem');
  return r.detail;
}

describe('problemPattern', () => {
  it('drops the recipient’s own value, so two recipients with the same problem share one pattern', () => {
    const cases: Array<[Record<string, unknown>, Record<string, unknown>, string]> = [
      [{ photo: 'not a link' }, { photo: 'a "quoted" thing' }, 'header image: the link is not a URL'],
      [{ photo: 'http://img.example/a.png' }, { photo: 'ftp://img.example/b.png' }, 'header image: links must be https'],
      [
        { first_name: 'a'.repeat(1100) },
        { first_name: 'b'.repeat(1500) },
        'body {{first_name}}: first_name is longer than the 1024 characters Meta allows',
      ],
      [
        { slug: 'x'.repeat(2100) },
        { slug: 'y'.repeat(2500) },
        'button 0 (URL suffix): slug makes the URL longer than the 2000 characters Meta allows',
      ],
    ];
    for (const [one, other, pattern] of cases) {
      const a = detailFor(one);
      const b = detailFor(other);
      expect(a).not.toBe(b);
      expect(problemPattern(a)).toBe(pattern);
      expect(problemPattern(b)).toBe(pattern);
    }
  });

  it('keeps details that carry no per-recipient value as they are', () => {
    for (const detail of [
      detailFor({ first_name: undefined }),
      detailFor({ first_name: '   ' }),
      detailFor({ first_name: { nested: true } }),
      detailFor({ first_name: 'two\nlines' }),
    ]) {
      expect(problemPattern(detail)).toBe(detail);
    }
    expect(detailFor({ first_name: undefined })).toBe('body {{first_name}}: first_name is missing');
  });
});
