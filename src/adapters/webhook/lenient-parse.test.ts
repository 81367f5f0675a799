import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import type { WebhookProblem } from '../../ports/webhook-items.js';
import { parseLenient } from './lenient-parse.js';
import { unixMillis } from './webhook-schema.js';

const item = z.object({ id: z.string(), note: z.string().optional(), tags: z.array(z.object({ k: z.string() })).optional() });
const container = z.object({ items: z.array(item), meta: z.object({ v: z.number() }).optional() });

function run(value: unknown) {
  const problems: WebhookProblem[] = [];
  return { value: parseLenient(container, value, ['root'], problems), problems };
}

describe('parseLenient', () => {
  it('returns valid input unchanged and reports nothing', () => {
    expect(run({ items: [{ id: 'a' }] })).toEqual({ value: { items: [{ id: 'a' }] }, problems: [] });
  });

  it('removes only the bad array elements', () => {
    const { value, problems } = run({ items: [{ id: 'a' }, { id: 1 }, 'x', { id: 'b' }] });
    expect(value).toEqual({ items: [{ id: 'a' }, { id: 'b' }] });
    expect(problems).toEqual([
      { path: 'root.items[1].id', message: 'Invalid input: expected string, received number' },
      { path: 'root.items[2]', message: 'Invalid input: expected object, received string' },
    ]);
  });

  it('drops a bad optional field, and a bad element of a nested optional list', () => {
    const { value, problems } = run({ items: [{ id: 'a', note: 5, tags: [{ k: 'x' }, { k: 2 }] }], meta: { v: 'two' } });
    expect(value).toEqual({ items: [{ id: 'a', tags: [{ k: 'x' }] }] });
    expect(problems.map((p) => p.path)).toEqual(['root.items[0].note', 'root.items[0].tags[1].k', 'root.meta.v']);
  });

  it('fails the whole object when a required field is missing, and says so', () => {
    expect(run({ meta: { v: 1 } })).toEqual({ value: undefined, problems: [{ path: 'root.items', message: 'missing' }] });
  });

  it('reports a value of the wrong shape at its own path', () => {
    expect(run([1]).problems).toEqual([{ path: 'root', message: 'Invalid input: expected object, received array' }]);
  });
});

describe('unixMillis', () => {
  it.each([
    ['1760000000', 1760000000000],
    [1760000000, 1760000000000],
    [0, 0],
  ])('reads %j as Unix seconds', (input, ms) => {
    expect(unixMillis.parse(input)).toBe(ms);
  });

  it.each([['-5'], ['1.5'], [1.5], [-1], ['2025-01-01'], [true], [1e15], ['999999999999']])('rejects %j', (input) => {
    expect(unixMillis.safeParse(input).success).toBe(false);
  });
});
