import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseWebhook } from './parse-webhook.js';
import { statusEvent } from '../../app/status-event.js';
import { toContactEvents } from '../../app/to-contact-events.js';
import type { ParsedWebhook } from '../../ports/webhook-items.js';

const FIXTURE_DIR = path.resolve(import.meta.dirname, '../../../test/fixtures/meta-webhooks');

const fixtureBodies: unknown[] = readdirSync(FIXTURE_DIR)
  .filter((file) => file.endsWith('.json'))
  .flatMap((file) => Object.values(JSON.parse(readFileSync(path.join(FIXTURE_DIR, file), 'utf8')) as Record<string, unknown>));

type Json = unknown;

/**
 * Replaces (or deletes, when `replacement` is undefined) the node that `picks` leads to. A mutation
 * never removes content on its own: an array node is replaced by a non-array, an array element is
 * replaced rather than removed, and a change's `field` never becomes another field name. So any
 * item lost after the mutation was discarded by the parser, which must then say where.
 */
function mutate(value: Json, picks: readonly number[], replacement: Json, key: string | number | null = null): Json {
  const [pick = 0, ...rest] = picks;
  const container = typeof value === 'object' && value !== null;
  const size = Array.isArray(value) ? value.length : container ? Object.keys(value).length : 0;
  if (picks.length === 0 || size === 0) return safeReplacement(value, replacement, key);
  if (Array.isArray(value)) {
    const index = pick % size;
    const copy = [...value];
    copy[index] = mutate(copy[index], rest, replacement, index);
    return copy;
  }
  const record = value as Record<string, Json>;
  const name = Object.keys(record)[pick % size] as string;
  const copy: Record<string, Json> = { ...record, [name]: mutate(record[name], rest, replacement, name) };
  if (copy[name] === undefined) delete copy[name];
  return copy;
}

function safeReplacement(original: Json, replacement: Json, key: string | number | null): Json {
  const emptying = replacement === undefined || replacement === null || Array.isArray(replacement);
  if (Array.isArray(original) && emptying) return 7;
  if (typeof key === 'number' && replacement === undefined) return null;
  if (key === 'field' && typeof replacement === 'string') return 7;
  return replacement;
}

function wellFormed(parsed: ParsedWebhook): void {
  for (const problem of parsed.problems) {
    expect(problem.path).not.toBe('');
    expect(problem.message).not.toBe('');
  }
  // Everything parsed must also map to events without throwing.
  toContactEvents(parsed.items);
  for (const item of parsed.items) if (item.kind === 'status') statusEvent(item);
}

describe('parseWebhook properties', () => {
  it('never throws on arbitrary JSON values', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        wellFormed(parseWebhook(value));
      }),
      { numRuns: 500 },
    );
  });

  it('never throws on arbitrary values under the right envelope', () => {
    const change = fc.record({
      field: fc.constantFrom('messages', 'user_preferences', 'account_update', 'template_category_update', 'other'),
      value: fc.jsonValue(),
    });
    const entry = fc.record({ id: fc.oneof(fc.string(), fc.integer()), changes: fc.array(change, { maxLength: 3 }) });
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 3 }), (entries) => {
        wellFormed(parseWebhook({ object: 'whatsapp_business_account', entry: entries }));
      }),
      { numRuns: 300 },
    );
  });

  it('on mutated fixture bodies, never throws and reports a path whenever it keeps fewer items', () => {
    const arbitrary = fc.record({
      body: fc.constantFrom(...fixtureBodies),
      picks: fc.array(fc.nat(50), { minLength: 1, maxLength: 9 }),
      replacement: fc.oneof(fc.constant(undefined), fc.jsonValue({ maxDepth: 2 })),
    });
    fc.assert(
      fc.property(arbitrary, ({ body, picks, replacement }) => {
        const before = parseWebhook(body).items.length;
        const after = parseWebhook(mutate(body, picks, replacement));
        wellFormed(after);
        if (after.items.length < before) expect(after.problems.length).toBeGreaterThan(0);
      }),
      { numRuns: 1000 },
    );
  });
});
