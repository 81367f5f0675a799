import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { outboxIntentSchema, templateIntentWriter } from './outbox-intent.js';

const base = { phoneNumberId: '100000000000001', template: { name: 'spring_sale', language: 'en_US' } };
const text = fc.string({ unit: 'binary', maxLength: 12 });
const value = fc.oneof(text, fc.record({ link: text }), fc.record({ mediaId: text, filename: text }), fc.constant(undefined));

describe('templateIntentWriter', () => {
  it('writes the text JSON.stringify writes for the same intent, skipping the keys without a value', () => {
    fc.assert(
      fc.property(fc.uniqueArray(text, { maxLength: 5 }), fc.array(value, { maxLength: 5 }), (keys, values) => {
        const write = templateIntentWriter(base, keys);
        // Own properties, as JSON.parse makes them: assigning `__proto__` would set the prototype instead.
        const frozen = Object.fromEntries(keys.flatMap((key, i) => (values[i] === undefined ? [] : [[key, values[i]]])));
        const written = write(values.slice(0, keys.length));
        expect(written).toBe(JSON.stringify({ ...base, template: { ...base.template, values: frozen } }));
        expect(outboxIntentSchema.safeParse(JSON.parse(written)).success).toBe(true);
      }),
    );
  });

  it('writes a key named __proto__ as an own key, as JSON.parse reads it back', () => {
    const written = templateIntentWriter(base, ['__proto__', ''])(['x', undefined]);
    expect(written).toBe(JSON.stringify({ ...base, template: { ...base.template, values: Object.fromEntries([['__proto__', 'x']]) } }));
    expect(Object.keys((JSON.parse(written) as { template: { values: object } }).template.values)).toEqual(['__proto__']);
  });

  it('escapes quotes, backslashes and control characters in the number, the template and the keys', () => {
    const write = templateIntentWriter({ phoneNumberId: '1"2', template: { name: 'a\\b', language: 'en\n' } }, ['body."1"']);
    expect(JSON.parse(write(['x\u0000y']))).toEqual({
      phoneNumberId: '1"2',
      template: { name: 'a\\b', language: 'en\n', values: { 'body."1"': 'x\u0000y' } },
    });
  });
});
