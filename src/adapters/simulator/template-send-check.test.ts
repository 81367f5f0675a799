import { describe, expect, it } from 'vitest';
import { DEFAULT_SIMULATOR_CONFIG, type SimTemplateConfig } from './config.js';
import { checkTemplateSend, WHITESPACE_DETAILS, type SendCheck } from './template-send-check.js';
import { templateShape } from './template-shape.js';

const byName = (name: string): SimTemplateConfig => DEFAULT_SIMULATOR_CONFIG.templates.find((t) => t.name === name)!;
/** Positional: image header, body {{1}} {{2}}, footer, a URL button with a suffix, a quick reply. */
const SPRING = templateShape(byName('spring_sale'));
/** Named: text header {{order_id}}, body first_name / order_id / order_status, a URL button with a suffix. */
const ORDER = templateShape(byName('order_update'));
/** Authentication: the code in the body and in the OTP button (listed as URL). */
const LOGIN = templateShape(byName('login_code'));
/** No header; a copy-code button and a quick reply. */
const COUPON = templateShape({
  name: 'coupon_drop',
  language: 'en_US',
  category: 'MARKETING',
  relevance: 0.5,
  components: [
    { type: 'BODY', text: 'Your code for {{1}} is below.' },
    {
      type: 'BUTTONS',
      buttons: [
        { type: 'COPY_CODE', example: 'SPRING15' },
        { type: 'QUICK_REPLY', text: 'Not interested' },
      ],
    },
  ],
});
/** Positional text header with one value. */
const NOTICE = templateShape({
  name: 'notice',
  language: 'en_US',
  category: 'UTILITY',
  relevance: 0.5,
  components: [
    { type: 'HEADER', format: 'TEXT', text: 'About {{1}}' },
    { type: 'BODY', text: 'Dear {{1}}, see the news.' },
  ],
});
const VIDEO = templateShape({
  name: 'clip',
  language: 'en_US',
  category: 'MARKETING',
  relevance: 0.5,
  components: [
    { type: 'HEADER', format: 'VIDEO' },
    { type: 'BODY', text: 'Watch this.' },
  ],
});

const text = (value: string, name?: string) => ({ type: 'text', text: value, ...(name === undefined ? {} : { parameter_name: name }) });
const image = { type: 'header', parameters: [{ type: 'image', image: { link: 'https://cdn.example/spring.jpg' } }] };
const springBody = (...values: string[]) => ({ type: 'body', parameters: values.map((v) => text(v)) });
const urlButton = (index: string | number, suffix: string) => ({ type: 'button', sub_type: 'url', index, parameters: [text(suffix)] });
const springOk = () => [image, springBody('Ada', '20%'), urlButton('0', 'ada')];
const orderHeader = (...params: object[]) => ({ type: 'header', parameters: params });
const orderBody = (...params: object[]) => ({ type: 'body', parameters: params });
const orderOk = () => [
  orderHeader(text('A-1001', 'order_id')),
  orderBody(text('Ada', 'first_name'), text('A-1001', 'order_id'), text('on its way', 'order_status')),
  urlButton(0, 'A-1001'),
];
const loginOk = (code = '482913') => [springBody(code), urlButton('0', code)];
const couponButton = (code: string) => ({
  type: 'button',
  sub_type: 'copy_code',
  index: 0,
  parameters: [{ type: 'coupon_code', coupon_code: code }],
});
const couponOk = (code = 'SPRING15') => [springBody('spring'), couponButton(code)];

function refusal(result: SendCheck): { code: number; details: string } {
  if (result.ok) throw new Error('expected a refusal, the send was accepted');
  return { code: result.code, details: result.details };
}

describe('template send check: accepted sends', () => {
  it('accepts complete sends of a positional, a named, an authentication and a copy-code template', () => {
    expect(checkTemplateSend(SPRING, springOk()).ok).toBe(true);
    expect(checkTemplateSend(ORDER, orderOk()).ok).toBe(true);
    expect(checkTemplateSend(LOGIN, loginOk()).ok).toBe(true);
    expect(checkTemplateSend(COUPON, couponOk()).ok).toBe(true);
  });

  it('takes a button index as the string "0" or the number 0, and named values in any order', () => {
    expect(checkTemplateSend(SPRING, [image, springBody('Ada', '20%'), urlButton(0, 'ada')]).ok).toBe(true);
    const [header, , button] = orderOk();
    const shuffled = orderBody(text('on its way', 'order_status'), text('Ada', 'first_name'), text('A-1001', 'order_id'));
    expect(checkTemplateSend(ORDER, [header!, shuffled, button!]).ok).toBe(true);
  });

  it('treats a quick-reply payload as optional, and takes one when given', () => {
    expect(checkTemplateSend(SPRING, springOk()).ok).toBe(true);
    const payload = { type: 'button', sub_type: 'quick_reply', index: '1', parameters: [{ type: 'payload', payload: 'STOP_PROMO' }] };
    expect(checkTemplateSend(SPRING, [...springOk(), payload]).ok).toBe(true);
  });

  it('allows four consecutive spaces and values right at the length limits', () => {
    expect(checkTemplateSend(SPRING, [image, springBody('Ada    Lovelace', '20%'), urlButton('0', 'ada')]).ok).toBe(true);
    expect(checkTemplateSend(NOTICE, [{ type: 'header', parameters: [text('x'.repeat(60))] }, springBody('y'.repeat(1024))]).ok).toBe(true);
    expect(checkTemplateSend(COUPON, couponOk('C'.repeat(15))).ok).toBe(true);
    expect(checkTemplateSend(LOGIN, loginOk('1'.repeat(15))).ok).toBe(true);
  });

  it('accepts a template without placeholders sent without components, and a video header by media id', () => {
    const plain = templateShape({ name: 'plain', language: 'en_US', category: 'UTILITY', relevance: 1 });
    expect(checkTemplateSend(plain, undefined).ok).toBe(true);
    const byId = checkTemplateSend(VIDEO, [{ type: 'header', parameters: [{ type: 'video', video: { id: '1040000000000001' } }] }]);
    expect(byId).toMatchObject({ ok: true, headerMedia: { kind: 'video', id: '1040000000000001' } });
  });
});

describe('template send check: 132000, the number of parameters', () => {
  it('refuses too few body parameters (positional)', () => {
    expect(refusal(checkTemplateSend(SPRING, [image, springBody('Ada'), urlButton('0', 'ada')]))).toEqual({
      code: 132000,
      details: 'body: number of localizable_params (1) does not match the expected number of params (2)',
    });
  });

  it('refuses too many body parameters (positional)', () => {
    expect(refusal(checkTemplateSend(SPRING, [image, springBody('Ada', '20%', 'extra'), urlButton('0', 'ada')]))).toEqual({
      code: 132000,
      details: 'body: number of localizable_params (3) does not match the expected number of params (2)',
    });
  });

  it('refuses a body sent without any parameters when the template has placeholders', () => {
    expect(refusal(checkTemplateSend(SPRING, [image, urlButton('0', 'ada')]))).toMatchObject({ code: 132000 });
  });

  it('refuses too few named body parameters, and too many', () => {
    const [header, , button] = orderOk();
    const few = orderBody(text('Ada', 'first_name'), text('A-1001', 'order_id'));
    expect(refusal(checkTemplateSend(ORDER, [header!, few, button!]))).toEqual({
      code: 132000,
      details: 'body: number of localizable_params (2) does not match the expected number of params (3)',
    });
    const many = orderBody(text('Ada', 'first_name'), text('A-1001', 'order_id'), text('late', 'order_status'), text('x', 'extra'));
    expect(refusal(checkTemplateSend(ORDER, [header!, many, button!]))).toMatchObject({ code: 132000 });
  });

  it('refuses a text header without its parameter (named), and with one too many (positional)', () => {
    const [, body, button] = orderOk();
    expect(refusal(checkTemplateSend(ORDER, [body!, button!]))).toEqual({
      code: 132000,
      details: 'header: number of localizable_params (0) does not match the expected number of params (1)',
    });
    expect(refusal(checkTemplateSend(NOTICE, [{ type: 'header', parameters: [text('a'), text('b')] }, springBody('Ada')]))).toEqual({
      code: 132000,
      details: 'header: number of localizable_params (2) does not match the expected number of params (1)',
    });
  });
});

describe('template send check: 132012, the format of the values', () => {
  it('refuses a named template parameter without parameter_name', () => {
    const [header, , button] = orderOk();
    const body = orderBody(text('Ada'), text('A-1001', 'order_id'), text('on its way', 'order_status'));
    expect(refusal(checkTemplateSend(ORDER, [header!, body, button!]))).toEqual({
      code: 132012,
      details: "body: parameter 1 has no parameter_name; the template's parameters are named",
    });
  });

  it('refuses a named parameter naming an unknown placeholder', () => {
    const [header, , button] = orderOk();
    const body = orderBody(text('Ada', 'first_name'), text('A-1001', 'order_number'), text('on its way', 'order_status'));
    expect(refusal(checkTemplateSend(ORDER, [header!, body, button!]))).toEqual({
      code: 132012,
      details: 'body: parameter 2 names "order_number", which is not a parameter of the body',
    });
  });

  it('refuses a positional template parameter carrying parameter_name', () => {
    const body = { type: 'body', parameters: [text('Ada', 'first_name'), text('20%')] };
    expect(refusal(checkTemplateSend(SPRING, [image, body, urlButton('0', 'ada')]))).toEqual({
      code: 132012,
      details: "body: parameter 1 has a parameter_name; the template's parameters are positional",
    });
  });

  it('refuses a text parameter for an image header', () => {
    expect(
      refusal(checkTemplateSend(SPRING, [{ type: 'header', parameters: [text('Spring')] }, springBody('Ada', '20%'), urlButton('0', 'a')])),
    ).toEqual({
      code: 132012,
      details: 'header: Format mismatch, expected IMAGE, received TEXT',
    });
  });

  it('refuses an image parameter for a text header', () => {
    const header = { type: 'header', parameters: [{ type: 'image', image: { link: 'https://cdn.example/a.jpg' } }] };
    expect(refusal(checkTemplateSend(NOTICE, [header, springBody('Ada')]))).toEqual({
      code: 132012,
      details: 'header: parameter 1: Format mismatch, expected TEXT, received IMAGE',
    });
  });

  it('refuses the wrong kind of media: an image for a video header', () => {
    expect(refusal(checkTemplateSend(VIDEO, [image]))).toEqual({
      code: 132012,
      details: 'header: Format mismatch, expected VIDEO, received IMAGE',
    });
  });

  it('refuses a header component for a template without a header', () => {
    expect(refusal(checkTemplateSend(COUPON, [{ type: 'header', parameters: [text('x')] }, ...couponOk()]))).toEqual({
      code: 132012,
      details: 'header: the template has no header component',
    });
  });
});

describe('template send check: 132018, newlines, tabs and runs of spaces', () => {
  const expected = { code: 132018, details: WHITESPACE_DETAILS };

  it('refuses a newline in a body parameter', () => {
    expect(refusal(checkTemplateSend(SPRING, [image, springBody('Ada\nLovelace', '20%'), urlButton('0', 'ada')]))).toEqual(expected);
  });

  it('refuses a tab in a header parameter', () => {
    expect(refusal(checkTemplateSend(NOTICE, [{ type: 'header', parameters: [text('a\tb')] }, springBody('Ada')]))).toEqual(expected);
  });

  it('refuses five consecutive spaces in a URL suffix', () => {
    expect(refusal(checkTemplateSend(SPRING, [image, springBody('Ada', '20%'), urlButton('0', 'a     b')]))).toEqual(expected);
  });

  it('refuses a newline in a quick-reply payload and a tab in a coupon code', () => {
    const payload = { type: 'button', sub_type: 'quick_reply', index: 1, parameters: [{ type: 'payload', payload: 'STOP\nNOW' }] };
    expect(refusal(checkTemplateSend(SPRING, [...springOk(), payload]))).toEqual(expected);
    expect(refusal(checkTemplateSend(COUPON, couponOk('SPR\tING')))).toEqual(expected);
  });
});

describe('template send check: 131008, required parameters missing', () => {
  it('refuses a URL button with a dynamic suffix sent without its component', () => {
    expect(refusal(checkTemplateSend(SPRING, [image, springBody('Ada', '20%')]))).toEqual({
      code: 131008,
      details: 'buttons: Button at index 0 of type URL requires a parameter',
    });
  });

  it('refuses a copy-code button sent without its component', () => {
    expect(refusal(checkTemplateSend(COUPON, [springBody('spring')]))).toEqual({
      code: 131008,
      details: 'buttons: Button at index 0 of type COPY_CODE requires a parameter',
    });
  });

  it('refuses an authentication template without its code button (the code goes in body and button)', () => {
    expect(refusal(checkTemplateSend(LOGIN, [springBody('482913')]))).toEqual({
      code: 131008,
      details: 'buttons: Button at index 0 of type URL requires a parameter',
    });
  });

  it('refuses a media header sent without its component', () => {
    expect(refusal(checkTemplateSend(SPRING, [springBody('Ada', '20%'), urlButton('0', 'ada')]))).toEqual({
      code: 131008,
      details: "header: the template's image header needs a parameter",
    });
  });
});

describe('template send check: 131009, invalid values', () => {
  it('refuses a header text parameter over 60 characters', () => {
    expect(refusal(checkTemplateSend(NOTICE, [{ type: 'header', parameters: [text('x'.repeat(61))] }, springBody('Ada')]))).toEqual({
      code: 131009,
      details: 'header: parameter 1: text is 61 characters long, at most 60 allowed',
    });
  });

  it('refuses a body parameter over 1024 characters', () => {
    expect(refusal(checkTemplateSend(SPRING, [image, springBody('x'.repeat(1025), '20%'), urlButton('0', 'a')]))).toEqual({
      code: 131009,
      details: 'body: parameter 1: text is 1025 characters long, at most 1024 allowed',
    });
  });

  it('refuses a coupon code over 15 characters', () => {
    expect(refusal(checkTemplateSend(COUPON, couponOk('C'.repeat(16))))).toEqual({
      code: 131009,
      details: 'buttons: button at index 0: coupon_code is 16 characters long, at most 15 allowed',
    });
  });

  it('refuses an authentication code over 15 characters, in the button and in the body', () => {
    const long = '1'.repeat(16);
    expect(refusal(checkTemplateSend(LOGIN, [springBody('123456'), urlButton('0', long)]))).toEqual({
      code: 131009,
      details: 'buttons: button at index 0: text is 16 characters long, at most 15 allowed',
    });
    expect(refusal(checkTemplateSend(LOGIN, loginOk(long)))).toMatchObject({ code: 131009 });
  });

  it('refuses a button index out of range, as a string and as a number', () => {
    expect(refusal(checkTemplateSend(SPRING, [...springOk(), urlButton('2', 'x')]))).toEqual({
      code: 131009,
      details: 'buttons: button at index 2: the template has 2 button(s)',
    });
    expect(refusal(checkTemplateSend(SPRING, [...springOk(), urlButton(5, 'x')]))).toMatchObject({ code: 131009 });
  });

  it('refuses a sub_type that does not match the button: quick_reply for a URL button, url for a copy-code one', () => {
    const qr = { type: 'button', sub_type: 'quick_reply', index: '0', parameters: [{ type: 'payload', payload: 'P' }] };
    expect(refusal(checkTemplateSend(SPRING, [image, springBody('Ada', '20%'), qr]))).toEqual({
      code: 131009,
      details: "buttons: button at index 0: sub_type quick_reply does not match the template's URL button",
    });
    expect(refusal(checkTemplateSend(COUPON, [springBody('spring'), urlButton(0, 'SPRING15')]))).toEqual({
      code: 131009,
      details: "buttons: button at index 0: sub_type url does not match the template's COPY_CODE button",
    });
  });

  it('refuses a URL button sub_type for a quick reply', () => {
    expect(refusal(checkTemplateSend(SPRING, [...springOk(), urlButton('1', 'x')]))).toMatchObject({ code: 131009 });
  });
});

describe('template send check: malformed components', () => {
  it('refuses an unknown component type, and a component that is not an object, with 100 naming the path', () => {
    expect(refusal(checkTemplateSend(SPRING, [...springOk(), { type: 'footer', parameters: [] }]))).toEqual({
      code: 100,
      details: 'Invalid parameter at template.components[3].type: unknown component type "footer"',
    });
    expect(refusal(checkTemplateSend(SPRING, ['body']))).toMatchObject({ code: 100 });
  });
});
