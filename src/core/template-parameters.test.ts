import { describe, expect, it } from 'vitest';
import { AUTH_OTP, CAROUSEL, NAMED_MARKETING, type TemplateJson } from '../../test/meta-template-examples.js';
import { DEFAULT_POLICY } from './policy.js';
import { parseMetaTemplate, type MetaTemplate } from './template-definition.js';
import {
  checkMapping,
  encodeUrlSuffix,
  renderParameters,
  STOP_PROMOTIONS_PAYLOAD,
  type ParameterMapping,
  type RecipientFields,
} from './template-parameters.js';
import { previewMessage } from './template-preview.js';
import { templateSlots } from './template-slots.js';

function template(json: TemplateJson): MetaTemplate {
  const r = parseMetaTemplate(json);
  if (!r.ok) throw new Error(r.reason);
  return r.template;
}

const POSITIONAL: TemplateJson = {
  id: '1',
  name: 'coupon',
  language: 'en_US',
  status: 'APPROVED',
  category: 'MARKETING',
  components: [
    { type: 'HEADER', format: 'TEXT', text: 'Hello {{1}}' },
    { type: 'BODY', text: 'Hi {{1}}, your {{2}} coupon is waiting.' },
    {
      type: 'BUTTONS',
      buttons: [
        { type: 'COPY_CODE', example: 'SAVE15' },
        { type: 'URL', text: 'Shop', url: 'https://shop.example/c/{{1}}' },
        { type: 'QUICK_REPLY', text: 'Stop promotions' },
        { type: 'QUICK_REPLY', text: 'Tell me more' },
      ],
    },
  ],
};

const options = { stopButtons: DEFAULT_POLICY.stopButtons };
const ada: RecipientFields = {
  name: 'Ada Lovelace',
  attributes: { first_name: 'Ada', coupon: 'SAVE15', tier: 'gold', slug: 'spring sale|ç' },
};

const FULL: ParameterMapping = {
  'header.1': { attribute: 'first_name' },
  'body.1': { attribute: 'first_name', fallback: 'there' },
  'body.2': { attribute: 'tier' },
  'button.0': { attribute: 'coupon' },
  'button.1': { attribute: 'slug' },
};

describe('templateSlots', () => {
  it('lists every value a template needs, by slot key, with Meta’s limits', () => {
    const t = template(POSITIONAL);
    const { slots } = templateSlots(t.definition, t.category);
    expect(slots.map((s) => [s.key, s.part, s.required, s.maxLength])).toEqual([
      ['header.1', 'header_text', true, 60],
      ['body.1', 'body', true, 1024],
      ['body.2', 'body', true, 1024],
      ['button.0', 'copy_code', true, 15],
      ['button.1', 'url_suffix', true, null],
      ['button.2', 'quick_reply', false, 256],
      ['button.3', 'quick_reply', false, 256],
    ]);
  });

  it('gives a body alone Meta’s larger limit, and an authentication code the code limit', () => {
    const alone = template({ ...POSITIONAL, components: [{ type: 'BODY', text: 'Only {{1}}' }] });
    expect(templateSlots(alone.definition, alone.category).slots[0]?.maxLength).toBe(32768);
    const otp = template(AUTH_OTP);
    const s = templateSlots(otp.definition, otp.category);
    expect(s.slots.map((x) => [x.key, x.maxLength])).toEqual([['body.1', 15]]);
    expect(s.otpButtonIndex).toBe(0);
  });
});

describe('checkMapping', () => {
  const t = template(POSITIONAL);

  it('accepts a mapping that covers every required value', () => {
    expect(checkMapping(t.definition, t.category, FULL)).toEqual([]);
  });

  it('lists every missing value and every key the template does not have', () => {
    const issues = checkMapping(t.definition, t.category, { 'body.1': { value: 'x' }, 'body.9': { value: 'y' } });
    expect(issues.map((i) => i.key)).toEqual(['body.9', 'header.1', 'body.2', 'button.0', 'button.1']);
    expect(issues[0]?.message).toContain('has no such value');
    expect(issues[0]?.message).toContain('body.1, body.2');
    expect(issues[1]?.message).toBe('header {{1}} has no value: map it to an attribute or a constant');
  });

  it('lets a bare placeholder name fill the header and the body alike', () => {
    const issues = checkMapping(t.definition, t.category, { ...FULL, 'header.1': undefined as never, 1: { attribute: 'first_name' } });
    expect(issues).toEqual([]);
  });

  it('refuses constants Meta would refuse, media on text, text on media, and non-https links', () => {
    const bad = checkMapping(t.definition, t.category, {
      ...FULL,
      'header.1': { value: 'x'.repeat(61) },
      'body.1': { value: 'two\nlines' },
      'body.2': { link: 'https://cdn.example/a.jpg' },
      'button.0': { attribute: 'coupon', fallback: 'A     B' },
    });
    expect(bad.map((i) => i.message)).toEqual([
      'header {{1}}: the value is 61 characters; Meta allows 60',
      'body {{1}}: the value contains a line break or tab, which Meta refuses in parameters',
      'body {{2}} takes text, not media',
      'button 0 (coupon code): the fallback has more than four spaces in a row, which Meta refuses in parameters',
    ]);
    const media = template(NAMED_MARKETING);
    const base = { first_name: { value: 'a' }, discount: { value: 'b' }, end_date: { value: 'c' }, 'button.0': { value: 'd' } };
    expect(checkMapping(media.definition, media.category, { ...base, header: { value: 'x' } })[0]?.message).toContain('not text');
    expect(checkMapping(media.definition, media.category, { ...base, header: { link: 'http://cdn.example/a.jpg' } })[0]?.message).toBe(
      'header image: links must be https, got http:',
    );
    expect(checkMapping(media.definition, media.category, { ...base, header: { mediaId: 'abc' } })[0]?.message).toContain('digits');
    expect(checkMapping(media.definition, media.category, { ...base, header: { link: 'https://cdn.example/a.jpg' } })).toEqual([]);
  });

  it('names the parts Pacer cannot fill in yet rather than sending them to fail', () => {
    const c = template(CAROUSEL);
    expect(checkMapping(c.definition, c.category, {}).map((i) => i.key)).toContain('carousel');
  });
});

describe('renderParameters', () => {
  it('renders positional values in Meta’s send shape, encoding the URL suffix and marking the stop button', () => {
    const t = template(POSITIONAL);
    const r = renderParameters(t.definition, t.category, FULL, ada, options);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.components).toEqual([
      { type: 'header', parameters: [{ type: 'text', text: 'Ada' }] },
      {
        type: 'body',
        parameters: [
          { type: 'text', text: 'Ada' },
          { type: 'text', text: 'gold' },
        ],
      },
      { type: 'button', sub_type: 'copy_code', index: '0', parameters: [{ type: 'coupon_code', coupon_code: 'SAVE15' }] },
      { type: 'button', sub_type: 'url', index: '1', parameters: [{ type: 'text', text: 'spring%20sale%7C%C3%A7' }] },
      { type: 'button', sub_type: 'quick_reply', index: '2', parameters: [{ type: 'payload', payload: STOP_PROMOTIONS_PAYLOAD }] },
    ]);
    expect(previewMessage(t.definition, r.values)).toEqual({
      header: 'Hello Ada',
      body: 'Hi Ada, your gold coupon is waiting.',
      footer: null,
      buttons: ['COPY_CODE: SAVE15', 'Shop → https://shop.example/c/spring%20sale%7C%C3%A7', 'Stop promotions', 'Tell me more'],
    });
  });

  it('names every value of a named template, and sends a media header by link or id', () => {
    const t = template(NAMED_MARKETING);
    const mapping: ParameterMapping = {
      header: { mediaId: '1040000000000001' },
      first_name: { attribute: 'first_name' },
      discount: { value: '15%' },
      end_date: { value: '31 May' },
      'button.0': { value: 'spring' },
      'button.1': { value: 'NO_THANKS' },
    };
    const r = renderParameters(t.definition, t.category, mapping, ada, options);
    if (!r.ok) throw new Error(r.detail);
    expect(r.components.slice(0, 2)).toEqual([
      { type: 'header', parameters: [{ type: 'image', image: { id: '1040000000000001' } }] },
      {
        type: 'body',
        parameters: [
          { type: 'text', parameter_name: 'first_name', text: 'Ada' },
          { type: 'text', parameter_name: 'discount', text: '15%' },
          { type: 'text', parameter_name: 'end_date', text: '31 May' },
        ],
      },
    ]);
    // A payload given overrides the stop marker; a positional URL variable takes no name.
    expect(r.components.slice(2)).toEqual([
      { type: 'button', sub_type: 'url', index: '0', parameters: [{ type: 'text', text: 'spring' }] },
      { type: 'button', sub_type: 'quick_reply', index: '1', parameters: [{ type: 'payload', payload: 'NO_THANKS' }] },
    ]);
  });

  it('sends an authentication code twice: in the body and as the one-time-password button', () => {
    const t = template(AUTH_OTP);
    const r = renderParameters(t.definition, t.category, { 'body.1': { value: '482913' } }, ada, options);
    if (!r.ok) throw new Error(r.detail);
    expect(r.components).toEqual([
      { type: 'body', parameters: [{ type: 'text', text: '482913' }] },
      { type: 'button', sub_type: 'url', index: '0', parameters: [{ type: 'text', text: '482913' }] },
    ]);
    expect(previewMessage(t.definition, r.values).body).toBe('*482913* is your verification code.');
  });

  it('skips a recipient whose attribute is missing or empty, naming the slot and the attribute', () => {
    const t = template(POSITIONAL);
    const noTier = { name: null, attributes: { first_name: 'Ada', coupon: 'X', slug: 's', tier: '  ' } };
    expect(renderParameters(t.definition, t.category, FULL, noTier, options)).toEqual({
      ok: false,
      reason: 'missing_parameter',
      slot: 'body.2',
      detail: 'body {{2}}: tier is empty',
    });
    const noCoupon = { name: null, attributes: { first_name: 'Ada', tier: 'gold', slug: 's' } };
    expect(renderParameters(t.definition, t.category, FULL, noCoupon, options)).toMatchObject({
      reason: 'missing_parameter',
      detail: 'button 0 (coupon code): coupon is missing',
    });
  });

  it('uses the fallback when the attribute has no value, and the contact’s name for `name`', () => {
    const t = template(POSITIONAL);
    const mapping = { ...FULL, 'header.1': { attribute: 'name' } };
    const r = renderParameters(t.definition, t.category, mapping, { ...ada, attributes: { ...ada.attributes, first_name: null } }, options);
    if (!r.ok) throw new Error(r.detail);
    expect(r.components[0]).toEqual({ type: 'header', parameters: [{ type: 'text', text: 'Ada Lovelace' }] });
    expect(r.components[1]?.parameters[0]).toEqual({ type: 'text', text: 'there' });
  });

  it('refuses per recipient what Meta would refuse: lengths, line breaks, runs of spaces, values that are not text', () => {
    const t = template(POSITIONAL);
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ first_name: 'A'.repeat(61) }, 'header {{1}}: first_name is 61 characters; Meta allows 60'],
      [{ first_name: 'Ada\tB' }, 'header {{1}}: first_name contains a line break or tab, which Meta refuses in parameters'],
      [{ tier: 'g     old' }, 'body {{2}}: tier has more than four spaces in a row, which Meta refuses in parameters'],
      [{ coupon: 'C'.repeat(16) }, 'button 0 (coupon code): coupon is 16 characters; Meta allows 15'],
      [{ tier: { level: 1 } }, 'body {{2}}: tier is not text'],
      [{ slug: 'x'.repeat(1990) }, 'button 1 (URL suffix): slug makes the URL 2013 characters; Meta allows 2000'],
    ];
    for (const [attrs, detail] of cases) {
      const r = renderParameters(t.definition, t.category, FULL, { name: null, attributes: { ...ada.attributes, ...attrs } }, options);
      expect(r).toMatchObject({ ok: false, detail });
    }
    const notText = renderParameters(
      t.definition,
      t.category,
      FULL,
      { name: null, attributes: { ...ada.attributes, tier: { a: 1 } } },
      options,
    );
    expect(notText).toMatchObject({ reason: 'invalid_parameter' });
    const tooLong = renderParameters(
      t.definition,
      t.category,
      FULL,
      { name: null, attributes: { ...ada.attributes, coupon: 'C'.repeat(16) } },
      options,
    );
    expect(tooLong).toMatchObject({ reason: 'invalid_parameter' });
  });

  it('reads numbers and booleans as text', () => {
    const t = template(POSITIONAL);
    const r = renderParameters(t.definition, t.category, FULL, { name: null, attributes: { ...ada.attributes, tier: 3 } }, options);
    expect(r.ok && r.components[1]?.parameters[1]).toEqual({ type: 'text', text: '3' });
  });
});

describe('encodeUrlSuffix', () => {
  it('encodes what a URL cannot carry and keeps escapes already made', () => {
    expect(encodeUrlSuffix('a b:c|d')).toBe('a%20b%3Ac%7Cd');
    expect(encodeUrlSuffix('spring%20sale')).toBe('spring%20sale');
    expect(encodeUrlSuffix('100%')).toBe('100%25');
  });
});
