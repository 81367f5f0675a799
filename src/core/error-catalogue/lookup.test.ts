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
    expect(findErrorsByText('Failed to send message because this user’s phone number is part of an experiment')[0]?.code).toBe(130472);
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

  it('finds the message inside a longer pasted log line', () => {
    const line =
      '2026-03-01T10:00:00Z WARN status failed wamid=HBgL... This message was not delivered to maintain ' +
      'healthy ecosystem engagement. recipient=4477****0123';
    const [best] = lookupError(line).matches;
    expect(best?.entry.code).toBe(131049);
    expect(best?.kind).toBe('contains_message');
  });

  it('reads codes written as [131049], "error 131049" and "#131049"', () => {
    expect(findErrorsByText('[131049] This message was not delivered')[0]?.code).toBe(131049);
    expect(findErrorsByText('error 132015 on send')[0]?.code).toBe(132015);
    expect(lookupError('#130472')).toMatchObject({ by: 'code', matches: [{ kind: 'code' }] });
  });

  it('ranks exact wording above fragments of other messages', () => {
    const codes = findErrorsByText('Rate limit hit');
    expect(codes[0]?.code).toBe(130429);
    expect(codes.map((e) => e.code)).toEqual(expect.arrayContaining([131056, 131048]));
  });

  it('finds range members by code and returns nothing for unrelated text', () => {
    expect(lookupError('250').matches[0]?.entry.codeTo).toBe(299);
    expect(lookupError('quarterly revenue forecast spreadsheet').matches).toEqual([]);
    expect(lookupError('').matches).toEqual([]);
    expect(lookupError('...').matches).toEqual([]);
  });
});
