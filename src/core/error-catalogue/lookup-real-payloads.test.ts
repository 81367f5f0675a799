import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { findErrorByCode, findErrorsByText, lookupError } from './index.js';

/** Error objects from real webhook payloads and from the reference must be recognised by their wording. */
const FIXTURES = path.resolve(import.meta.dirname, '../../../test/fixtures/meta-webhooks');

interface MetaError {
  code: number;
  title?: string;
  message?: string;
  error_data?: { details?: string };
}

function isMetaError(value: unknown): value is MetaError {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { code?: unknown }).code === 'number' &&
    ('title' in value || 'message' in value)
  );
}

function collectErrors(value: unknown, out: MetaError[] = []): MetaError[] {
  if (Array.isArray(value)) value.forEach((item) => collectErrors(item, out));
  else if (typeof value === 'object' && value !== null) {
    if (isMetaError(value)) out.push(value);
    Object.values(value).forEach((child) => collectErrors(child, out));
  }
  return out;
}

const fixtureErrors = readdirSync(FIXTURES)
  .filter((name) => name.endsWith('.json'))
  .flatMap((name) => collectErrors(JSON.parse(readFileSync(path.join(FIXTURES, name), 'utf8'))).map((error) => ({ name, error })));

describe('errors in real webhook payloads', () => {
  it('finds some (guards the walker)', () => {
    expect(fixtureErrors.length).toBeGreaterThan(2);
  });

  it.each(fixtureErrors.map(({ name, error }) => [`${name} ${error.code}`, error] as const))(
    '%s: known code, found by its title',
    (_label, error) => {
      expect(findErrorByCode(error.code)).toBeDefined();
      const title = error.title ?? error.message ?? '';
      expect(findErrorsByText(title).map((e) => e.code)).toContain(error.code);
    },
  );

  it.each(fixtureErrors.map(({ name, error }) => [`${name} ${error.code}`, error] as const))(
    '%s: the whole pasted error object puts its code first',
    (_label, error) => {
      expect(lookupError(JSON.stringify(error)).matches[0]?.entry.code).toBe(error.code);
    },
  );
});

describe('wording quoted in the reference', () => {
  it('finds 131049, 130472 and 131050 from the sample strings', () => {
    const cases: [string, number][] = [
      ['This message was not delivered to maintain healthy ecosystem engagement.', 131049],
      ['In order to maintain a healthy ecosystem engagement, the message failed to be delivered.', 131049],
      ["User's number is part of an experiment", 130472],
      ["Failed to send message because this user's phone number is part of an experiment", 130472],
      [
        'Unable to deliver the message. This recipient has chosen to stop receiving marketing messages on WhatsApp from your business',
        131050,
      ],
    ];
    for (const [text, code] of cases) expect(findErrorsByText(text)[0]?.code, text).toBe(code);
  });

  it('reads a Graph error body: the code in "(#130429) Rate limit hit" wins', () => {
    const body =
      '{"error":{"message":"(#130429) Rate limit hit","type":"OAuthException","code":130429,' +
      '"error_data":{"messaging_product":"whatsapp","details":"Cloud API message throughput has been reached."}}}';
    const result = lookupError(body);
    expect(result.by).toBe('text');
    expect(result.matches[0]?.entry.code).toBe(130429);
    expect(result.matches[0]?.kind).toBe('code_in_text');
  });
});
