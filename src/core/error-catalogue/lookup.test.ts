import { describe, expect, it } from 'vitest';
import { classifyCode, findErrorByCode, findErrorsByText, lookupError } from './index.js';

describe('findErrorByCode', () => {
  it('finds single codes and returns undefined for unknown ones', () => {
    expect(findErrorByCode(131049)?.class).toBe('per_user_marketing_cap');
    expect(findErrorByCode(987654)).toBeUndefined();
  });
});

describe('classifyCode', () => {
  it('treats codes listed in capCodes as the per-user marketing cap', () => {
    expect(classifyCode(131049, [131049])).toBe('per_user_marketing_cap');
    expect(classifyCode(131026, [131049])).toBe('recipient_undeliverable');
    expect(classifyCode(131026, [131049, 131026])).toBe('per_user_marketing_cap');
    expect(classifyCode(987654, [131049])).toBe('unknown');
  });
});

describe('lookup by pasted text', () => {
  const variants = [
    'This message was not delivered to maintain healthy ecosystem engagement.',
    'this message was not delivered to maintain a healthy ecosystem engagement',
    'In order to maintain a healthy ecosystem engagement, the message failed to be delivered.',
    'IN ORDER TO MAINTAIN HEALTHY ECOSYSTEM ENGAGEMENT THE MESSAGE FAILED TO GET DELIVERED',
    '(#131049) This message was not delivered to maintain healthy ecosystem engagement',
    'failed to get delivered',
    '  maintain   a  healthy\necosystem ',
  ];
  it.each(variants)('finds 131049 first for %j', (text) => {
    expect(findErrorsByText(text)[0]?.code).toBe(131049);
  });

  it('finds 130472 and 131050 by their wording', () => {
    expect(findErrorsByText("Failed to send message because this user’s phone number is part of an experiment")[0]?.code).toBe(130472);
    expect(findErrorsByText('User’s number is part of an experiment.')[0]?.code).toBe(130472);
    expect(findErrorsByText('this recipient has chosen to stop receiving marketing messages on WhatsApp')[0]?.code).toBe(131050);
  });

  it('looks numeric queries up by code, and code wins over text', () => {
    const byCode = lookupError(' 131049 ');
    expect(byCode.by).toBe('code');
    expect(byCode.matches.map((m) => m.entry.code)).toEqual([131049]);
    const mixed = lookupError('(#131026) This message was not delivered to maintain healthy ecosystem engagement.');
    expect(mixed.by).toBe('text');
    expect(mixed.matches.map((m) => m.entry.code)).toEqual([131026, 131049]);
  });
});
