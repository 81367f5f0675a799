import { describe, expect, it } from 'vitest';
import { parseMetaTemplate, parseTemplateComponents, type MetaTemplate } from './template-definition.js';
import { AUTH_OTP, CAROUSEL, LIMITED_TIME_OFFER, NAMED_MARKETING, POSITIONAL_PAUSED } from '../../test/meta-template-examples.js';
import { extractPlaceholders, orderPlaceholders } from './template-placeholders.js';

function parsed(input: unknown): MetaTemplate {
  const result = parseMetaTemplate(input);
  if (!result.ok) throw new Error(result.reason);
  return result.template;
}

function refusal(input: unknown): string {
  const result = parseMetaTemplate(input);
  if (result.ok) throw new Error('parsed');
  return result.reason;
}

const clone = <T>(value: T): T => structuredClone(value);

// The refusal cases break the examples at arbitrary paths.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Loose = any;

describe('extractPlaceholders', () => {
  it('finds positional and named placeholders once each, in the order the text uses them', () => {
    expect(extractPlaceholders('{{2}} then {{1}} and {{2}} again')).toEqual(['2', '1']);
    expect(extractPlaceholders('Hi {{ first_name }}, {{discount}} off')).toEqual(['first_name', 'discount']);
    expect(extractPlaceholders('no parameters { {1} }')).toEqual([]);
  });

  it('puts positional parameters in number order and refuses gaps and mixed formats', () => {
    expect(orderPlaceholders(['2', '1'], 'positional')).toEqual({ ok: true, placeholders: ['1', '2'] });
    expect(orderPlaceholders(['1', '3'], 'positional')).toEqual({ ok: false, reason: expect.stringContaining('{{1}}..{{2}}') });
    expect(orderPlaceholders(['name'], 'positional')).toMatchObject({ ok: false });
    expect(orderPlaceholders(['1'], 'named')).toMatchObject({ ok: false });
    expect(orderPlaceholders(['b', 'a'], 'named')).toEqual({ ok: true, placeholders: ['b', 'a'] });
  });
});

describe('parseMetaTemplate', () => {
  it('reads a named marketing template: media header, named body parameters, URL suffix and quick reply', () => {
    const t = parsed(NAMED_MARKETING);
    expect(t).toMatchObject({
      metaId: '880000000000001',
      name: 'spring_promo_named',
      language: 'en_GB',
      category: 'marketing',
      metaStatus: 'APPROVED',
      status: 'approved',
      quality: 'GREEN',
    });
    expect(t.components).toBe(NAMED_MARKETING.components);
    expect(t.definition).toEqual({
      parameterFormat: 'named',
      subCategory: 'CUSTOM',
      header: { format: 'IMAGE', text: null, placeholders: [] },
      body: { text: 'Hi {{first_name}}, take {{discount}} off until {{end_date}}.', placeholders: ['first_name', 'discount', 'end_date'] },
      footer: 'Tap Stop promotions to opt out',
      buttons: [
        { index: 0, type: 'URL', text: 'Shop', url: 'https://shop.example/p/{{1}}', urlPlaceholder: '1', otp: false },
        { index: 1, type: 'QUICK_REPLY', text: 'Stop promotions', url: null, urlPlaceholder: null, otp: false },
      ],
      carouselCards: 0,
      limitedTimeOffer: null,
      messageSendTtlSeconds: null,
    });
  });

  it('reads an authentication template: the code as {{1}}, its OTP button read back as URL, and the TTL', () => {
    const t = parsed(AUTH_OTP);
    expect(t.category).toBe('authentication');
    expect(t.definition.body.placeholders).toEqual(['1']);
    expect(t.definition.buttons).toEqual([expect.objectContaining({ index: 0, type: 'URL', otp: true, urlPlaceholder: '1' })]);
    expect(t.definition.messageSendTtlSeconds).toBe(300);
    // Without its text (Meta supplies the fixed one) the code is still the one parameter.
    const noText = clone(AUTH_OTP);
    delete (noText.components[0] as { text?: string }).text;
    expect(parsed(noText).definition.body).toEqual({ text: null, placeholders: ['1'] });
  });

  it('reads a paused positional template as not sendable, and quality as absent when Meta gives none', () => {
    const t = parsed(POSITIONAL_PAUSED);
    expect(t).toMatchObject({ category: 'utility', status: 'paused', quality: null });
    expect(t.definition).toMatchObject({ parameterFormat: 'positional', header: null, body: { placeholders: ['1'] }, buttons: [] });
  });

  it('counts a carousel’s cards and reads a limited-time offer with its copy-code button', () => {
    expect(parsed(CAROUSEL).definition).toMatchObject({ carouselCards: 3, body: { placeholders: ['1'] } });
    const lto = parsed(LIMITED_TIME_OFFER).definition;
    expect(lto.limitedTimeOffer).toEqual({ text: 'Flash sale', hasExpiration: true });
    expect(lto.header).toEqual({ format: 'VIDEO', text: null, placeholders: [] });
    expect(lto.body.placeholders).toEqual(['1', '2']);
    expect(lto.buttons.map((b) => [b.index, b.type, b.urlPlaceholder])).toEqual([
      [0, 'COPY_CODE', null],
      [1, 'URL', '1'],
    ]);
  });

  it('reads a text header’s one parameter; a parameter format left out means positional', () => {
    const t = clone(POSITIONAL_PAUSED) as Record<string, unknown> & { components: unknown[] };
    delete t['parameter_format'];
    t.components.unshift({ type: 'HEADER', format: 'TEXT', text: 'Order {{1}}' });
    expect(parsed(t).definition).toMatchObject({ parameterFormat: 'positional', header: { format: 'TEXT', placeholders: ['1'] } });
  });

  it('refuses malformed templates with a reason naming the path', () => {
    const cases: [(t: Loose) => void, string][] = [
      [(t) => delete t['name'], 'name must be a non-empty string'],
      [(t) => (t['id'] = ''), 'id must be a non-empty string'],
      [(t) => (t['category'] = 'PROMO'), 'category must be MARKETING, UTILITY or AUTHENTICATION, got "PROMO"'],
      [(t) => (t['parameter_format'] = 'ODD'), 'parameter_format must be POSITIONAL or NAMED'],
      [(t) => (t['components'] = {}), 'components must be an array'],
      [(t) => (t['components'][1].text = 42), 'components[1].text must be a string, got 42'],
      [(t) => (t['components'][1].text = 'Hi {{1}}'), 'components[1].text {{1}} is not a named parameter'],
      [(t) => (t['components'][0].format = 'HOLOGRAM'), 'components[0].format must be one of TEXT, IMAGE'],
      [
        (t) => (t['components'][3].buttons[0].url = 'https://x.example/{{1}}/p'),
        'components[3].buttons[0].url may hold one parameter, only at its end',
      ],
      [(t) => (t['components'][3].buttons = 'none'), 'components[3].buttons must be an array'],
      [(t) => (t['components'][2] = 'FOOTER'), 'components[2] must be an object'],
      [(t) => t['components'].splice(1, 1), 'components has no BODY'],
      [(t) => (t['message_send_ttl_seconds'] = '300'), 'message_send_ttl_seconds must be an integer'],
    ];
    for (const [breakIt, reason] of cases) {
      const t = clone(NAMED_MARKETING) as Loose;
      breakIt(t);
      expect(refusal(t)).toContain(reason);
    }
    expect(refusal('a template')).toBe('(template) must be an object');
    const carousel = clone(CAROUSEL) as Loose;
    carousel['components'][1].cards[1] = { components: null };
    expect(refusal(carousel)).toBe('components[1].cards[1].components must be an array');
    const header = clone(POSITIONAL_PAUSED) as Loose;
    header['components'].unshift({ type: 'HEADER', format: 'TEXT', text: '{{1}} and {{2}}' });
    expect(refusal(header)).toBe('components[0].text may hold one parameter, has 2');
    const gap = clone(POSITIONAL_PAUSED) as Loose;
    gap['components'][0].text = 'Pedido {{2}}';
    expect(refusal(gap)).toContain('components[0].text positional parameters must run {{1}}..{{1}}');
  });

  it('reads stored components again the same way, for the send that fills them in', () => {
    const t = parsed(NAMED_MARKETING);
    const { subCategory: _s, messageSendTtlSeconds: _ttl, ...content } = t.definition;
    expect(parseTemplateComponents(t.components, 'named', 'marketing')).toEqual({ ok: true, content });
    expect(parseTemplateComponents(null, 'named', 'marketing')).toEqual({ ok: false, reason: 'components must be an array' });
    expect(parseTemplateComponents(t.components, 'positional', 'marketing')).toMatchObject({
      ok: false,
      reason: 'components[1].text {{first_name}} is not a positional parameter ({{1}}, {{2}}, …)',
    });
  });
});
